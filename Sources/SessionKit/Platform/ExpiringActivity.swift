#if os(iOS) || os(tvOS) || os(watchOS)
import Dispatch
import Foundation

/// `ProcessInfo.performExpiringActivity` held open until ``end()``.
///
/// The system calls the block on a background thread with `expired == false`
/// and keeps the process running until the block returns; the block therefore
/// waits on a semaphore that ``end()`` signals. If time runs out the system
/// calls the block again with `expired == true`: signalling then lets the
/// first call return at once, as the system asks. The wait is also capped so
/// a forgotten `end()` cannot hold the process forever.
final class ExpiringActivity: BackgroundActivity, @unchecked Sendable {
    // A semaphore is safe to signal from any thread; nothing else is shared.
    private let semaphore = DispatchSemaphore(value: 0)

    init(reason: String) {
        let semaphore = self.semaphore
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
            if expired {
                semaphore.signal()
                return
            }
            _ = semaphore.wait(timeout: .now() + .seconds(60))
        }
    }

    func end() {
        semaphore.signal()
    }
}
#endif
