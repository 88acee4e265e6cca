import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Trades a provider's authorization code for the account it vouches for.
///
/// Every failure — no answer, a timeout, a 4xx/5xx, a body that is not JSON,
/// a missing account id — becomes an ``OAuthRedirectError`` that ends the flow
/// at the app's redirect; nothing here can turn into a 500.
struct ProviderCodeExchange: Sendable {
    let client: any OAuthHTTPClient
    let logger: Logger

    func account(
        provider: OAuthProviderConfiguration, code: String, redirectURI: String
    ) async throws(OAuthRedirectError) -> ProviderAccount {
        var request = URLRequest(url: provider.tokenURL)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(
            Self.formEncode([
                ("client_id", provider.clientID), ("client_secret", provider.clientSecret), ("code", code),
                ("grant_type", "authorization_code"), ("redirect_uri", redirectURI),
            ]).utf8)
        let tokenBody = try await call(request, provider: provider, what: "token")
        guard let tokenBody else { throw .exchangeFailed("the token answer is not a JSON object") }

        var accountSource = tokenBody
        if let userInfoURL = provider.userInfoURL {
            guard let accessToken = tokenBody["access_token"]?.stringValue, !accessToken.isEmpty else {
                throw .exchangeFailed("the token answer has no access_token")
            }
            var infoRequest = URLRequest(url: userInfoURL)
            infoRequest.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
            infoRequest.setValue("application/json", forHTTPHeaderField: "Accept")
            guard let info = try await call(infoRequest, provider: provider, what: "user-info") else {
                throw .exchangeFailed("the user-info answer is not a JSON object")
            }
            accountSource = info
        }
        guard let id = ProviderAccount.accountID(ProviderAccount.value(at: provider.accountIDField, in: accountSource)) else {
            logger.warning("The provider's answer has no usable account id", metadata: ["provider": "\(provider.name)", "field": "\(provider.accountIDField)"])
            throw .exchangeFailed("the answer has no \(provider.accountIDField)")
        }
        var profile: [String: JSONValue] = [:]
        if let field = provider.profileField, case .object(let object)? = ProviderAccount.value(at: field, in: accountSource) {
            profile = object
        } else if provider.userInfoURL != nil {
            profile = accountSource
        }
        // Tokens never become identity data: they would be stored in plain text.
        for key in ["access_token", "refresh_token", "id_token"] { profile.removeValue(forKey: key) }
        let email = (accountSource["email"]?.stringValue ?? profile["email"]?.stringValue).flatMap(Self.usableEmail)
        return ProviderAccount(
            id: id, profile: profile, email: email,
            emailVerified: email != nil && ProviderAccount.emailVerified(in: accountSource, profile: profile))
    }

    /// Sends `request`; a 2xx JSON object, `nil` for a 2xx that is not one, or a redirect error.
    private func call(
        _ request: URLRequest, provider: OAuthProviderConfiguration, what: String
    ) async throws(OAuthRedirectError) -> [String: JSONValue]? {
        let response: OAuthHTTPResponse
        do {
            response = try await client.send(request)
        } catch {
            logger.warning("The provider could not be reached", metadata: ["provider": "\(provider.name)", "endpoint": "\(what)", "error.type": "\(type(of: error))"])
            throw .exchangeFailed("the provider's \(what) endpoint could not be reached")
        }
        guard (200..<300).contains(response.status) else {
            logger.warning("The provider refused", metadata: ["provider": "\(provider.name)", "endpoint": "\(what)", "status": "\(response.status)"])
            throw .exchangeFailed("the provider's \(what) endpoint answered HTTP \(response.status)")
        }
        do {
            return try JSONDecoder().decode([String: JSONValue].self, from: response.body)
        } catch {
            return nil
        }
    }

    /// The provider's email, normalized; a malformed one is dropped, since the account id identifies the person.
    static func usableEmail(_ raw: String) -> String? {
        do {
            return try SessionService.normalize(email: raw)
        } catch {
            return nil
        }
    }

    static func formEncode(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}
