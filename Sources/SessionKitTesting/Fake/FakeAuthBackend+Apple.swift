import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// Sign in with Apple in the fake: the test plays Apple.
///
/// ```swift
/// let nonce = AppleSignInNonce()
/// let token = await fake.appleIDToken(sub: "001234.abcd", email: "ada@privaterelay.appleid.com", nonce: nonce.raw)
/// try await client.signInWithApple(idToken: token, nonce: nonce.raw)
/// ```
///
/// The fake recognizes the tokens it handed out instead of checking RS256;
/// the real checks are auth-server's, tested against it.
extension FakeAuthBackend {
    /// An ID token as Apple would give the app for `sub`, bound to `nonce` (raw).
    public func appleIDToken(sub: String, email: String?, nonce: String) -> String {
        let token = "fake-apple-id-token." + Self.randomToken()
        appleTokens[token] = (sub, email?.lowercased(), AppleSignInNonce(raw: nonce).hashed)
        return token
    }

    func handleIDTokenGrant(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        guard let body = decodeBody(IDTokenRequest.self, request), !body.idToken.isEmpty else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "id_token is required.")
        }
        guard body.provider == "apple" else {
            return try goTrueError(
                request, status: 400, code: .providerDisabled, message: "Unsupported provider: \(body.provider.prefix(40))")
        }
        guard let entry = appleTokens[body.idToken] else {
            return try goTrueError(request, status: 400, code: .badJWT, message: "Invalid ID token: the signature is invalid.")
        }
        guard body.nonce.map({ AppleSignInNonce(raw: $0).hashed }) == entry.nonceHash else {
            return try goTrueError(
                request, status: 400, code: .badJWT, message: "Invalid ID token: the nonce does not match the ID token.")
        }
        // Linked by sub, never by email, as auth-server does.
        let key: String
        if let known = appleUsers[entry.sub], users[known] != nil {
            key = known
        } else {
            key = entry.email.flatMap { users[$0] == nil ? $0 : nil } ?? "apple:\(entry.sub)"
            createUser(email: key, password: Self.randomToken())
            appleUsers[entry.sub] = key
        }
        guard let user = users[key] else {
            return try goTrueError(request, status: 500, code: .unexpectedFailure, message: "fake: user vanished")
        }
        return try json(request, startFamily(for: user.record))
    }
}
