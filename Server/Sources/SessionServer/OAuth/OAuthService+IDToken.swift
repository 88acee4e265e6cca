import Foundation
import Logging
import SessionCore

extension OAuthService {
    /// `grant_type=id_token`: a session for the person an ID token names,
    /// their identity linked by `(provider, sub)`, never by email.
    func signIn(with request: IDTokenRequest, origin: SessionService.Origin) async throws -> TokenResponse {
        let account = try await appleAccount(request)
        let user = try await findOrCreateUser(provider: "apple", account: account)
        logger.info("Signed in with an Apple ID token", metadata: ["user": "\(user.id)"])
        return try await sessions.startSession(for: user, origin: origin, method: "oauth")
    }

    /// The Apple account an ID token names, after Apple's checks.
    func appleAccount(_ request: IDTokenRequest) async throws -> ProviderAccount {
        guard request.provider == "apple", let apple else { throw AuthError.providerDisabled(request.provider) }
        guard !request.idToken.isEmpty else { throw AuthError.invalidRequest(field: "id_token", "id_token is required.") }
        if let nonce = request.nonce, nonce.isEmpty || nonce.utf8.count > 512 {
            throw AuthError.invalidRequest(field: "nonce", "nonce must be 1 to 512 characters.")
        }
        return try await apple.account(idToken: request.idToken, nonce: request.nonce, now: clock.now)
    }
}
