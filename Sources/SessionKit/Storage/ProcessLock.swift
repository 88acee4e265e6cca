import Foundation

/// An exclusive lock shared by every store value in this process that names
/// the same record: the refresh lock of a store that has no cross-process one.
///
/// Two clients on one store in one process (an app that builds a client per
/// scene, or keeps an old one around) must refresh one at a time, as two
/// processes do: each re-reads the record under the lock and adopts what the
/// other saved, so a refresh token reaches the server once (docs/PROTOCOL.md,
/// "The lock"). Without it, both sent the same token and leaned on the
/// server's reuse grace (issue 31, row 8). It is bounded and cancellable like
/// ``FileLock``, and released when its handle goes away unreleased.
final class ProcessLock: SessionStoreLock, @unchecked Sendable {
    private static let registry = NSLock()
    // Read and written under `registry`.
    nonisolated(unsafe) private static var held: Set<String> = []

    // `key` is cleared once, under `state`, when the lock is released.
    private let state = NSLock()
    private var key: String?

    private init(key: String) {
        self.key = key
    }

    /// Waits until the lock named `key` is held by the caller.
    ///
    /// - Parameter timeout: the most to wait, in real seconds (a lock wait decides no expiry).
    /// - Throws: ``SessionStoreError/lockFailed(_:)`` after `timeout`, or when the task is cancelled.
    static func acquire(_ key: String, timeout: TimeInterval = .infinity) async throws(SessionStoreError) -> ProcessLock {
        let clock = ContinuousClock()
        let deadline = timeout.isFinite ? clock.now.advanced(by: .milliseconds(Int64(max(0, timeout) * 1000))) : nil
        var pause = Duration.milliseconds(1)
        while true {
            let taken = registry.withLock { held.insert(key).inserted }
            if taken { return ProcessLock(key: key) }
            if let deadline, clock.now >= deadline {
                throw .lockFailed("another client in this process has held the session's lock for more than \(Int(timeout)) s")
            }
            do {
                // Short at first (a refresh holds the lock for one round trip), then 50 ms steps.
                try await Task.sleep(for: pause)
            } catch {
                throw .lockFailed("the wait for the session's lock was cancelled")
            }
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    func unlock() async {
        release()
    }

    private func release() {
        let released: String? = state.withLock {
            defer { key = nil }
            return key
        }
        guard let released else { return }
        _ = Self.registry.withLock { Self.held.remove(released) }
    }

    deinit {
        // A lock that was never unlocked (a bug) must not outlive its owner.
        release()
    }
}
