import Foundation
import Logging
import SessionCore

/// Signing in with a provider's ID token (Sign in with Apple), and keeping
/// the name Apple sends only once.
struct IDTokenSignIn: Sendable {
    /// GoTrue's `grant_type=id_token`.
    func signIn(idToken: String, provider: String, nonce: String?, on engine: isolated any SessionEngine) async throws(SessionError) -> Session {
        guard !idToken.isEmpty else { throw SessionError.invalidRequest.with(message: "The ID token is empty.") }
        let request = try engine.backend.request(
            for: .signInWithIDToken(IDTokenRequest(provider: provider, idToken: idToken, nonce: nonce)))
        do throws(SessionError) {
            return try await engine.signIn(with: request)
        } catch where error.goTrueErrorCode == .providerDisabled {
            throw SessionError.unsupported.with(message: "This server does not offer sign-in with \(provider).")
        }
    }

    /// Signs in with Apple, then writes the name Apple sent into the user's
    /// metadata (GoTrue's own user update: hosted Supabase has no gateway
    /// profile). A failed name write does not fail the sign-in.
    func signInWithApple(
        idToken: String, nonce: String, fullName: AppleFullName?, savingName: Bool, on engine: isolated any SessionEngine
    ) async throws(SessionError) -> AppleSignInResult {
        let session = try await signIn(idToken: idToken, provider: "apple", nonce: nonce, on: engine)
        var result = AppleSignInResult(session: session, fullName: fullName, nameNotSaved: nil)
        guard savingName, let fullName, !fullName.isEmpty else { return result }
        do throws(SessionError) {
            _ = try await AccountRequests().updateUser(UserAttributes(data: fullName.metadata), on: engine)
            result.session = engine.currentSession ?? session
        } catch {
            engine.logger.notice("The name from Sign in with Apple could not be saved to the profile", metadata: ["reason": "\(error)"])
            result.nameNotSaved = error
        }
        return result
    }
}
