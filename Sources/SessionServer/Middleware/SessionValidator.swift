import Foundation

/// Decides whether a verified token's session is still live (not signed
/// out, revoked or deleted). The server's ``AuthStore`` is one.
public protocol SessionValidator: Sendable {
    /// `true` when `sessionID` exists, belongs to `userID` and is not revoked or past its cap at `now`.
    func isSessionActive(sessionID: String, userID: String, now: Date) async throws -> Bool
}

extension AuthStore: SessionValidator {
    public func isSessionActive(sessionID: String, userID: String, now: Date) async throws -> Bool {
        guard let session = try await session(id: sessionID) else { return false }
        return session.userID == userID && !session.isRevoked && now < session.notAfter
    }
}
