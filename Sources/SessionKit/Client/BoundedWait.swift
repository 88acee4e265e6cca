import Foundation
import SessionCore

/// Waits for a task's value, but no longer than a bound on a ``SessionClock``.
///
/// Awaiting `Task.value` cannot be given up, so the waiter is a continuation
/// that whichever comes first — the value or the deadline — resumes once.
enum BoundedWait {
    /// - Returns: the task's value, or `nil` if `seconds` of `clock` time passed first.
    static func value<T: Sendable>(of task: Task<T, Never>, atMost seconds: TimeInterval, clock: any SessionClock) async -> T? {
        let once = ResumeOnce<T?>()
        return await withCheckedContinuation { continuation in
            once.arm(continuation)
            let timer = Task {
                do {
                    try await clock.sleep(for: seconds)
                } catch {
                    return  // the value came first and cancelled the timer
                }
                once.resume(with: nil)
            }
            Task {
                let value = await task.value
                timer.cancel()
                once.resume(with: value)
            }
        }
    }
}

/// A continuation resumed at most once, by whichever caller comes first.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Never>?

    func arm(_ continuation: CheckedContinuation<T, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    func resume(with value: T) {
        let taken: CheckedContinuation<T, Never>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        taken?.resume(returning: value)
    }
}
