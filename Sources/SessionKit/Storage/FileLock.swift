#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An exclusive advisory lock (`flock(2)`) on a file beside the session record.
///
/// `flock` locks belong to an open file description, so every acquisition
/// opens its own descriptor: two processes contend, and so do two stores in
/// one process (which is how the cross-process path is tested in-process).
/// The kernel releases the lock when its holder dies, so a crashed process
/// never leaves it held. The wait polls with `LOCK_NB` rather than blocking
/// in `flock`, so it is bounded and cancellable: a hung or stopped holder
/// (a suspended app, a process under a debugger) cannot freeze the others.
final class FileLock: SessionStoreLock, @unchecked Sendable {
    // `fd` is written once in `init` and cleared once in `unlock`, under `state`.
    private let state = NSLock()
    private var fd: Int32?

    private init(fd: Int32) {
        self.fd = fd
    }

    /// Waits until the lock on `path` is held, creating the file (mode 0600) if needed.
    ///
    /// - Parameter timeout: the most to wait, in real seconds (a lock wait
    ///   decides no expiry, so it runs on the monotonic clock).
    /// - Throws: ``SessionStoreError/lockFailed(_:)`` on an I/O error, after
    ///   `timeout`, or when the calling task is cancelled.
    static func acquire(path: String, timeout: TimeInterval = .infinity) async throws(SessionStoreError) -> FileLock {
        let fd: Int32
        do {
            fd = try POSIX.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        } catch {
            throw .lockFailed(error.detail)
        }
        let clock = ContinuousClock()
        let deadline = timeout.isFinite ? clock.now.advanced(by: .milliseconds(Int64(max(0, timeout) * 1000))) : nil
        var pause = Duration.milliseconds(1)
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return FileLock(fd: fd) }
            let code = errno
            if code != EAGAIN, code != EINTR {  // EWOULDBLOCK is EAGAIN on Linux and Darwin
                POSIX.close(fd)
                throw .lockFailed("flock: \(POSIX.lastError())")
            }
            if let deadline, clock.now >= deadline {
                POSIX.close(fd)
                throw .lockFailed("another process has held \(path) for more than \(Int(timeout)) s")
            }
            do {
                // Short at first (a refresh holds the lock for one round trip), then 50 ms steps.
                try await Task.sleep(for: pause)
            } catch {
                POSIX.close(fd)
                throw .lockFailed("the wait for \(path) was cancelled")
            }
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    func unlock() async {
        let held: Int32? = state.withLock {
            defer { fd = nil }
            return fd
        }
        guard let held else { return }
        // Closing the descriptor releases the lock too; unlocking first makes it explicit.
        _ = flock(held, LOCK_UN)
        POSIX.close(held)
    }

    deinit {
        // A lock that was never unlocked (a bug) must not outlive its owner.
        if let fd {
            _ = flock(fd, LOCK_UN)
            POSIX.close(fd)
        }
    }
}
