import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// OAuth with PKCE in the fake: the test plays the browser and the provider.
///
/// ```swift
/// let url = try await client.signInWithOAuth(provider: "strava", redirectTo: URL(string: "myapp://cb")!)
/// let callback = try await fake.approveOAuth(url, email: "ada@example.com")   // or fake.denyOAuth(url)
/// try await client.handleOAuthCallback(callback)
/// ```
extension FakeAuthBackend {
    /// Errors in driving the fake's OAuth flow from a test.
    public struct OAuthDriverError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Plays "the person consented": reads `redirect_to` and `code_challenge`
    /// from the authorize URL the client built, creates the user if needed,
    /// and returns the callback URL with a one-time `code`.
    public func approveOAuth(_ authorizeURL: URL, email: String) throws -> URL {
        let (redirectTo, challenge) = try Self.authorizeParameters(authorizeURL)
        if users[email.lowercased()] == nil { createUser(email: email, password: Self.randomToken()) }
        let code = Self.randomToken()
        oauthCodes[code] = (challenge, email.lowercased())
        return try Self.append(["code": code], to: redirectTo)
    }

    /// Plays "the person declined": the callback URL with `error=access_denied`.
    public func denyOAuth(_ authorizeURL: URL) throws -> URL {
        let (redirectTo, _) = try Self.authorizeParameters(authorizeURL)
        return try Self.append(
            ["error": "access_denied", "error_code": "bad_oauth_callback", "error_description": "The user denied access"],
            to: redirectTo)
    }

    func handlePKCEGrant(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        guard let body = decodeBody(PKCETokenRequest.self, request), !body.authCode.isEmpty, !body.codeVerifier.isEmpty else {
            return try goTrueError(
                request, status: 400, code: .validationFailed,
                message: "invalid request: both auth code and code verifier should be non-empty")
        }
        guard let entry = oauthCodes[body.authCode], let user = users[entry.userKey] else {
            return try goTrueError(
                request, status: 404, code: .flowStateNotFound, message: "invalid flow state, no valid flow state found")
        }
        guard PKCE.challenge(for: body.codeVerifier) == entry.challenge else {
            return try goTrueError(
                request, status: 400, code: .badCodeVerifier,
                message: "code challenge does not match previously saved code verifier")
        }
        oauthCodes[body.authCode] = nil
        return try json(request, startFamily(for: user.record))
    }

    static func authorizeParameters(_ url: URL) throws -> (redirectTo: URL, challenge: String) {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        guard let redirect = value("redirect_to").flatMap(URL.init(string:)), let challenge = value("code_challenge"),
            value("code_challenge_method") == "s256"
        else {
            throw OAuthDriverError(description: "Not an authorize URL with redirect_to and an s256 code_challenge: \(url)")
        }
        return (redirect, challenge)
    }

    static func append(_ fields: [String: String], to url: URL) throws -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw OAuthDriverError(description: "redirect_to is not a URL: \(url)")
        }
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let added = fields.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }
        components.percentEncodedQuery = ([components.percentEncodedQuery].compactMap { $0 }.filter { !$0.isEmpty } + added)
            .joined(separator: "&")
        guard let result = components.url else { throw OAuthDriverError(description: "Cannot build the callback URL.") }
        return result
    }
}
