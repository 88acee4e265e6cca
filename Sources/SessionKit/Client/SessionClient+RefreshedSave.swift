import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Saving what a refresh brought: directly under the refresh's lock, or,
/// after a refresh that went without it, as a write retry does
/// (docs/PROTOCOL.md, "What the model found", 2).
extension SessionClient {
    /// What became of a refreshed session's save.
    enum RefreshedSave: Sendable {
        /// Saved, or kept in memory as the pending write: the refreshed session stands.
        case stands
        /// The store was ahead (another process rotated since): that session was adopted instead.
        case adopted(Session)
        /// The session ended while it was being saved.
        case dropped
    }

    /// Saves a refreshed session.
    ///
    /// A refresh that holds the lock re-read the store before sending, so it
    /// writes the next sequence directly. One that went on without the lock
    /// (rule D) saves as a write retry does: lock, re-read, adopt if the
    /// store is ahead, else write after what is stored (docs/PROTOCOL.md,
    /// "What the model found", 2) — a late blind write could push the store back.
    ///
    /// Rule F: on failure the session stays in memory, the write is retried with
    /// backoff and `persistenceFailed` is published: the new refresh token is
    /// never dropped.
    /// - Parameter previous: the session that was refreshed (still current while this runs).
    func persistRefreshed(
        _ session: Session, replacing previous: Session, generation gen: UInt64, holding lock: HeldStoreLock?
    ) async -> RefreshedSave {
        enum Outcome: Sendable {
            case saved, dropped
            case failed(SessionStoreError)
        }
        let record = stamped(StoredSession(session, sequence: nextSequence(after: nil)).carryingOAuth(of: pendingRecord()))
        if lock == nil {
            guard gen == generation else { return .dropped }
            pendingWrite = record
            let retry = await retryPendingWrite()
            guard gen == generation else { return .dropped }
            // The write step adopted what another process stored meanwhile.
            if let current, current.refreshToken != previous.refreshToken { return .adopted(current) }
            if retry {
                logger.error("The refreshed session could not be saved; keeping it in memory and retrying")
                broadcaster.publish(.persistenceFailed(SessionError.persistenceFailed))
                startWriteRetry()
            }
            return .stands
        }
        let outcome: Outcome = await withStoreAccess {
            // Signed out (or in as someone else) while the refresh was in flight: write nothing.
            guard gen == generation else { return .dropped }
            do throws(SessionStoreError) {
                try await store.save(record)
                noteWritten(record)
                return .saved
            } catch {
                return .failed(error)
            }
        }
        switch outcome {
        case .saved:
            pendingWrite = nil
            writeRetryTask?.cancel()
        case .dropped:
            logger.info("Dropped a refreshed session: the session ended while it was being saved")
            return .dropped
        case .failed(let error):
            logger.error("The refreshed session could not be saved; keeping it in memory and retrying", metadata: ["reason": "\(error)"])
            pendingWrite = record
            broadcaster.publish(.persistenceFailed(SessionError.persistenceFailed.with(underlying: error.reason)))
            startWriteRetry()
        }
        return .stands
    }
}
