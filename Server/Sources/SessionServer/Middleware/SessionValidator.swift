import Foundation

/// Decides whether a verified token's session is still live (not signed
/// out, revoked or deleted). The server's ``AuthStore`` is one.
public protocol SessionValidator: Sendable {
    /// `true` when `sessionID` exists, belongs to `userID` and is not revoked or past its cap at `now`.
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
        guard let session = try await sessionOfExistingUser(id: sessionID) else { return false }
        let active = session.userID == userID && !session.isRevoked && now < session.notAfter
        if active {
            sessionChecks.remember(
                sessionID: sessionID, userID: userID, notAfter: session.notAfter, now: now, epoch: epoch)
        }
        return active
    }

    private func readSessionActive(sessionID: String, userID: String, now: Date) async throws -> Bool {
        guard let session = try await sessionOfExistingUser(id: sessionID) else { return false }
        return session.userID == userID && !session.isRevoked && now < session.notAfter
    }
}
