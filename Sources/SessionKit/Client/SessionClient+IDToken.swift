import Foundation
import SessionCore

/// Signing in with a provider's ID token (Sign in with Apple).
extension SessionClient {
    /// Signs in with an ID token from Sign in with Apple; the session is
    /// saved (verified) before this returns.
    ///
    /// - Parameters:
    ///   - idToken: `ASAuthorizationAppleIDCredential.identityToken`, as text.
    ///   - nonce: the raw nonce whose hash was given to Apple (``AppleSignInNonce/raw``).
    /// - Throws: ``SessionError/invalidCredentials`` when the server would not
    ///   accept the token (its message names the check), ``SessionError/unsupported``
    ///   (a backend without it, or Apple not turned on), ``SessionError/network``,
    ///   ``SessionError/persistenceFailed`` (then nothing changed: try again).
    @discardableResult
    public func signInWithApple(idToken: String, nonce: String) async throws(SessionError) -> Session {
        try await signIn(idToken: idToken, provider: "apple", nonce: nonce)
    }

    /// Signs in with a provider's ID token (GoTrue's `grant_type=id_token`).
    @discardableResult
    public func signIn(idToken: String, provider: String, nonce: String?) async throws(SessionError) -> Session {
        guard !idToken.isEmpty else { throw SessionError.invalidRequest.with(message: "The ID token is empty.") }
        let request = try backend.request(
            for: .signInWithIDToken(IDTokenRequest(provider: provider, idToken: idToken, nonce: nonce)))
        do throws(SessionError) {
            return try await signIn(with: request)
        } catch where error.goTrueErrorCode == .providerDisabled {
            throw SessionError.unsupported.with(message: "This server does not offer sign-in with \(provider).")
        }
    }
}
