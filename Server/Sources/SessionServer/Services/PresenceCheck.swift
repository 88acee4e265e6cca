import Foundation
import SessionCore

/// Proof that the account's owner is at the keyboard, before a change that
/// locks everyone else out: a new password, or deleting the account.
///
/// A stolen access token or refresh token alone is not enough. The proof is
/// the current password, or a session that signed in within the
/// re-authentication window (its `amr` claim says when).
struct PresenceCheck: Sendable {
    let store: AuthStore
    let hasher: PasswordHasher
    /// Checked when the account has no password, so every mismatch costs one bcrypt.
    let decoyHash: String
    let window: TimeInterval
    let clock: any SessionClock

    /// - Parameter currentPassword: the password the person typed, if the client asked for it.
    /// - Throws: ``AuthError/currentPasswordMismatch`` when `currentPassword` is wrong;
    ///   ``AuthError/reauthenticationNeeded(withinSeconds:)`` when there is no password and
    ///   the session signed in too long ago; ``AuthError/sessionRevoked`` when the session is gone.
    func require(_ identity: AuthenticatedIdentity, user: UserRecord, currentPassword: String?) async throws {
        if let currentPassword {
            // A wrong password is refused even from a fresh session: the person typed something else.
            let hash = user.hasPassword ? user.passwordHash : decoyHash
            guard currentPassword.utf8.count <= 72, await hasher.verify(currentPassword, hash: hash), user.hasPassword
            else { throw AuthError.currentPasswordMismatch }
            return
        }
        guard let sessionID = identity.sessionID, let session = try await store.session(id: sessionID),
            session.userID == user.id, !session.isRevoked
        else { throw AuthError.sessionRevoked }
        // The session row, not the token's claim, is the authority: a refresh cannot make it younger.
        guard clock.now.timeIntervalSince(session.createdAt) <= window else {
            throw AuthError.reauthenticationNeeded(withinSeconds: Int(window))
        }
    }
}
