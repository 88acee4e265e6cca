import Foundation
import SQLKit

/// Decides whether a verified token's session is still live (not signed
/// out, revoked or deleted). The server's ``AuthStore`` is one.
public protocol SessionValidator: Sendable {
    /// `true` when `sessionID` exists, belongs to `userID` (not banned at `now`) and is not revoked or past its cap at `now`.
    func isSessionActive(sessionID: String, userID: String, now: Date) async throws -> Bool
}

extension AuthStore: SessionValidator {
    /// Reads the session, or reuses an answer ``sessionChecks`` still trusts.
    public func isSessionActive(sessionID: String, userID: String, now: Date) async throws -> Bool {
        guard sessionChecks.ttl > 0 else { return try await readSessionActive(sessionID: sessionID, userID: userID, now: now) }
        // The epoch is taken before the read: a revocation committing meanwhile voids this answer.
        guard case .unknown(let epoch) = sessionChecks.lookup(sessionID: sessionID, userID: userID, now: now) else {
            return true
        }
        guard let session = try await sessionOfExistingUser(id: sessionID, now: now) else { return false }
        let active = session.userID == userID && !session.isRevoked && now < session.notAfter
        if active {
            sessionChecks.remember(
                sessionID: sessionID, userID: userID, notAfter: session.notAfter, now: now, epoch: epoch)
        }
        return active
    }

    private func readSessionActive(sessionID: String, userID: String, now: Date) async throws -> Bool {
        guard let session = try await sessionOfExistingUser(id: sessionID, now: now) else { return false }
        return session.userID == userID && !session.isRevoked && now < session.notAfter
    }
}

extension AuthStore {
    /// The one place a write that may end a session runs (a sign-out, a
    /// revocation, a detected reuse, a new password, a deletion, a ban, a
    /// redeemed code that clears an unproven password): once its transaction
    /// ends, ``sessionChecks`` forgets every "live" answer, so the check above
    /// cannot re-learn an old one. Nothing else clears that cache.
    ///
    /// - Parameters:
    ///   - changingUsers: the transaction also writes `users` or `identities`
    ///     (``changingUsers(_:)`` then clears ``userCache`` too).
    ///   - revoked: whether this result ended a session (a granted rotation did not:
    ///     the hot path keeps its cached answers).
    /// - Throws: what `body` throws; the answers are forgotten then too, as a
    ///   failed commit may still have committed, and forgetting is always safe.
    func revokingSessions<T: Sendable>(
        changingUsers writesUsers: Bool = false, revoked: @Sendable (T) -> Bool = { _ in true },
        _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let result: T
        do {
            result = writesUsers ? try await changingUsers(body) : try await driver.transaction(body)
        } catch {
            sessionChecks.forgetAll()
            throw error
        }
        // After the commit, so no check can re-learn the old answer.
        if revoked(result) { sessionChecks.forgetAll() }
        return result
    }
}
