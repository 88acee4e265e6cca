import Foundation
import SessionCore

extension SessionService {
    /// `POST /signup` with neither email nor phone: a new anonymous user and
    /// its first session, answered as a password sign-up's session is (GoTrue's
    /// `SignupAnonymously`, `internal/api/anonymous.go`). The session's `amr`
    /// method is `anonymous`; the route checks the switch and the per-IP limit first.
    func signInAnonymously(metadata: [String: JSONValue], origin: Origin) async throws -> TokenResponse {
        let user = try await store.createAnonymousUser(
            metadata: metadata, now: clock.now,
            audit: AuditActor(actor: "anonymous", ip: origin.ip, details: [:], now: clock.now))
        return try await startSession(for: user, origin: origin, method: "anonymous")
    }
}

extension SessionService {
    /// GoTrue's `requireNotAnonymous` (`internal/api/auth.go`): an anonymous
    /// user may not enrol a second factor or register a passkey, since neither
    /// could ever be used to sign back in to an account with no address.
    ///
    /// GoTrue reads the token's `is_anonymous` claim; this reads the user row
    /// the claim was written from, so the answer is the same for every token
    /// this server issued, and current for one issued before a change.
    ///
    /// - Throws: ``AuthError/anonymousNotAllowed`` (403 `no_authorization`),
    ///   ``AuthError/sessionRevoked`` when the user is gone.
    func requireNotAnonymous(_ identity: AuthenticatedIdentity) async throws {
        guard let user = try await store.currentUser(id: identity.userID, now: clock.now) else {
            throw AuthError.sessionRevoked
        }
        if user.isAnonymous { throw AuthError.anonymousNotAllowed }
    }
}
