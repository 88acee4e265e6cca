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
        try await IDTokenSignIn().signIn(idToken: idToken, provider: "apple", nonce: nonce, on: self)
    }

    /// Signs in with a provider's ID token (GoTrue's `grant_type=id_token`).
    @discardableResult
    public func signIn(idToken: String, provider: String, nonce: String?) async throws(SessionError) -> Session {
        try await IDTokenSignIn().signIn(idToken: idToken, provider: provider, nonce: nonce, on: self)
    }
}
