import Foundation
import Logging
import SessionCore

extension SessionClient {
    /// Signs in with Sign in with Apple's ID token and keeps the name Apple sent.
    ///
    /// - Parameters:
    ///   - idToken: `ASAuthorizationAppleIDCredential.identityToken`, as text.
    ///   - nonce: the raw nonce whose hash was given to Apple.
    ///   - fullName: `ASAuthorizationAppleIDCredential.fullName`, through ``AppleFullName/init(_:)``.
    ///   - savingName: write a name Apple sent into the user's metadata
    ///     (``AppleFullName/metadata``, through ``updateUser(_:)``), so every device sees it.
    /// - Returns: the session, the name, and why it was not saved if it was not.
    /// - Throws: what ``signInWithApple(idToken:nonce:)`` throws; a failed
    ///   name write does not throw (see ``AppleSignInResult/nameNotSaved``).
    public func signInWithApple(
        idToken: String, nonce: String, fullName: AppleFullName?, savingName: Bool
    ) async throws(SessionError) -> AppleSignInResult {
        try await IDTokenSignIn().signInWithApple(idToken: idToken, nonce: nonce, fullName: fullName, savingName: savingName, on: self)
    }
}
