import Foundation
import Logging
import SessionCore

extension AuthServer {
    /// Deletes anonymous users unseen for longer than `age`, by this server's
    /// clock (`auth-server users prune-anonymous`; docs/ACCOUNTS.md).
    ///
    /// - Returns: how many were deleted.
    public func pruneAnonymousUsers(olderThan age: IdleAge) async throws -> Int {
        let now = configuration.clock.now
        let deleted = try await store.pruneAnonymousUsers(notSeenSince: now.addingTimeInterval(-age.seconds), now: now)
        if deleted > 0 { logger.notice("Pruned anonymous users", metadata: ["count": "\(deleted)", "older_than": "\(age)"]) }
        return deleted
    }
}
