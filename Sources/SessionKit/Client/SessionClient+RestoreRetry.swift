import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// A launch read that could not be done yet (a device locked since its
/// restart) is tried again without the app's help: when protected data
/// becomes available, when the app becomes active, and on a bounded timer of
/// the client's clock (docs/PROTOCOL.md, "A launch that never sticks").
extension SessionClient {
    /// The delays of the timed re-reads after a launch read failed: bounded;
    /// after the last, only the app's lifecycle events (unlock, activation) and its own calls retry.
    static let restoreRetryDelays: [TimeInterval] = [2, 10, 30, 60, 120, 300]

    /// True while a launch read failed and none is running: the state is still `restoring`.
    var restoreIsPending: Bool { !hasRestored && current == nil && restoreTask == nil && !isShutDown }

    /// Ends a launch read without a session: shows `state`, unless the end of
    /// the last session (`expired`) is on screen, which a second read keeps.
    func endRestore(showing state: SessionState) {
        hasRestored = true
        restoreSucceeded()
        if case .expired = broadcaster.current { return }
        broadcaster.set(state)
    }

    /// The store answered: no timed re-read is needed any more.
    func restoreSucceeded() {
        restoreRetryTask?.cancel()
        restoreRetryTask = nil
        restoreRetryAttempts = 0
    }

    /// Arms the next timed re-read, unless one is armed or the bound is reached.
    func scheduleRestoreRetry() {
        guard !isShutDown, restoreRetryTask == nil, restoreRetryAttempts < Self.restoreRetryDelays.count else { return }
        let delay = Self.restoreRetryDelays[restoreRetryAttempts]
        restoreRetryAttempts += 1
        let clock = self.clock
        restoreRetryTask = Task { [weak self] in
            do {
                try await clock.sleep(for: delay)
            } catch {
                return  // cancelled: the store answered meanwhile, or the client shut down
            }
            await self?.restoreRetryFired()
        }
    }

    private func restoreRetryFired() async {
        restoreRetryTask = nil
        await retryRestore(because: "timer")
    }

    /// Reads the store again if the launch read is still pending; a failure arms the next timed read.
    func retryRestore(because reason: String) async {
        guard restoreIsPending else { return }
        logger.info("Reading the stored session again", metadata: ["trigger": "\(reason)"])
        do {
            _ = try await restore()
        } catch {
            // Published in the state; a transient failure armed the next timed read.
            logger.notice("The stored session still cannot be read", metadata: ["reason": "\(error.message)"])
        }
    }
}
