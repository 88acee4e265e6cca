import Foundation
import SessionCore

/// Proof that the account's owner is at the keyboard, before a change that
/// locks everyone else out: a new password, deleting the account, signing
/// every other device out.
///
/// A stolen access token or refresh token alone is not enough. The proof is
/// the current password, a nonce mailed by `POST /reauthenticate` (for a
/// person with no password), or a session that signed in within the
/// re-authentication window (docs/EMAIL.md, "Re-authentication").
struct PresenceCheck: Sendable {
    let store: AuthStore
    let hasher: PasswordHasher
    /// Checked when the account has no password, so every mismatch costs one bcrypt.
    let decoyHash: String
    let window: TimeInterval
    let clock: any SessionClock
    /// The account's password budget, shared with password sign-in (`sign-in-email`,
    /// `sign-in-email-hour`, keyed alike): every `current_password` check spends it,
    /// on every surface (issue 37, item 2).
    let passwordBudget: [any RateLimiting]
    /// One audit entry per account an hour for a refused check, not one per refusal.
    let budgetAudit: any RateLimiting
    let metrics: ServerMetrics
    /// Checks a mailed nonce; `nil` where no nonce can be sent (no mail service wired).
    var nonces: EmailCodeService? = nil

    func require(
        _ identity: AuthenticatedIdentity, user: UserRecord, currentPassword: String?, nonce: String? = nil, ip: String? = nil
    ) async throws {
        try await require(sessionID: identity.sessionID, user: user, currentPassword: currentPassword, nonce: nonce, ip: ip)
    }

    /// - Parameters:
    ///   - sessionID: the session asking (an API token's, or the account page's own).
    ///   - currentPassword: the password the person typed, if the client asked for it.
    ///   - nonce: the code from the re-authentication email, if the client asked for it.
    /// - Throws: ``AuthError/passwordChecksLimited(retryAfter:)`` when the account's
    ///   password budget is spent (before any hashing);
    ///   ``AuthError/currentPasswordMismatch`` when `currentPassword` is wrong;
    ///   ``AuthError/reauthenticationNotValid`` when `nonce` is wrong, expired or used;
    ///   ``AuthError/reauthenticationNeeded(withinSeconds:)`` when neither was sent and
    ///   the session signed in too long ago; ``AuthError/sessionRevoked`` when the session is gone.
    func require(
        sessionID: String?, user: UserRecord, currentPassword: String?, nonce: String? = nil, ip: String? = nil
    ) async throws {
        if let currentPassword {
            try await spendPasswordCheck(user, ip: ip)
            // A wrong password is refused even from a fresh session: the person typed something else.
            let hash = user.hasPassword ? user.passwordHash : decoyHash
            guard currentPassword.utf8.count <= 72, await hasher.verify(currentPassword, hash: hash), user.hasPassword
            else { throw AuthError.currentPasswordMismatch }
            return
        }
        // An empty nonce is no nonce, as in GoTrue (`len(params.Nonce) == 0`).
        if let nonce, !nonce.isEmpty {
            // Checked whenever sent, as a typed password is: unlike GoTrue, which
            // ignores a nonce from a session younger than a day (docs/EMAIL.md).
            guard let nonces else { throw AuthError.reauthenticationNotValid }
            try await nonces.verifyReauthentication(nonce, for: user, ip: ip)
            return
        }
        guard let sessionID, let session = try await store.session(id: sessionID),
            session.userID == user.id, !session.isRevoked
        else { throw AuthError.sessionRevoked }
        // The session row, not the token's claim, is the authority: a refresh cannot make it younger.
        guard clock.now.timeIntervalSince(session.createdAt) <= window else {
            throw AuthError.reauthenticationNeeded(withinSeconds: Int(window))
        }
    }

    /// Counts one password check against the account's budget, before the
    /// bcrypt: an unlocked browser cannot guess without limit, nor keep the
    /// work slots busy for everyone's sign-ins.
    private func spendPasswordCheck(_ user: UserRecord, ip: String?) async throws {
        // Keyed as sign-in keys it (the normalized address), so both surfaces draw on one budget.
        let key = user.email ?? "user:" + user.id
        for limiter in passwordBudget {
            guard case .limited(let seconds) = try await limiter.attempt(key) else { continue }
            metrics.passwordChecksLimited()
            if case .allowed = try await budgetAudit.attempt(key) {
                try await store.audit(
                    actor: user.id, action: "password_checks_limited", target: user.id, ip: ip,
                    details: ["retry_after": .number(Double(seconds))], now: clock.now)
            }
            throw AuthError.passwordChecksLimited(retryAfter: seconds)
        }
    }
}
