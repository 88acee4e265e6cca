#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An exclusive advisory lock (`flock(2)`) on a file beside the session record.
///
/// `flock` locks belong to an open file description, so every acquisition
/// opens its own descriptor: two processes contend, and so do two stores in
/// one process (which is how the cross-process path is tested in-process).
/// The blocking `flock` call runs on a Dispatch thread, never on a thread of
/// Swift's cooperative pool, and is bridged back with a continuation.
final class FileLock: SessionStoreLock, @unchecked Sendable {
    // `fd` is written once in `init` and cleared once in `unlock`, under `state`.
    private let state = NSLock()
    private var fd: Int32?

    private init(fd: Int32) {
        self.fd = fd
    }

    /// Waits until the lock on `path` is held, creating the file (mode 0600) if needed.
    static func acquire(path: String) async throws(SessionStoreError) -> FileLock {
        let fd: Int32
        do {
            fd = try POSIX.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        } catch {
            throw .lockFailed(error.detail)
        }
        let failure: String? = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                while true {
                    if flock(fd, LOCK_EX) == 0 {
                        continuation.resume(returning: nil)
                        return
                    }
                    if errno != EINTR {
                        continuation.resume(returning: "flock: \(POSIX.lastError())")
                        return
                    }
                }
            }
        }
        if let failure {
            POSIX.close(fd)
            throw .lockFailed(failure)
        }
        return FileLock(fd: fd)
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
