#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
import Dispatch
import Foundation

/// `ProcessInfo.performExpiringActivity(withReason:using:)` held open until ``end()``.
///
/// The system calls the block on a background thread with `expired == false`
/// and keeps the process running until the block returns; the block therefore
/// waits on a semaphore that ``end()`` signals. If time runs out the system
/// calls the block again with `expired == true`: then `onExpiration` runs
/// (the client cancels its refresh, which releases the shared lock), the
/// expired call waits a moment for ``end()``, and both calls return, as the
/// system asks. The wait is also capped so a forgotten `end()` cannot hold the
/// process forever. A process suspended holding a lock in a shared container
/// is killed by the system (0xdead10cc).
final class ExpiringActivity: BackgroundActivity, @unchecked Sendable {
    // Semaphores are safe to signal from any thread; nothing else is shared.
    private let running = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    init(reason: String, onExpiration: @escaping @Sendable () -> Void) {
        let running = self.running
        let ended = self.ended
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
            if expired {
                onExpiration()
                // A short grace for the cancelled work to release its lock, then let go.
                _ = ended.wait(timeout: .now() + .seconds(1))
                running.signal()
                return
            }
            _ = running.wait(timeout: .now() + .seconds(60))
        }
    }

    func end() {
        ended.signal()
        running.signal()
    }
}
#endif
