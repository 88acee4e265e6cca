import Foundation
import Logging

/// Proof that this client holds the store's cross-process lock
/// (docs/PROTOCOL.md, "The lock").
///
/// Only ``SessionClient/takeLock(for:)`` and ``SessionClient/takeLockIfFree()``
/// make one, so a function that takes one (`holding lock:`) is only ever
/// called by a caller that has the lock, never one that merely says so; `nil`
/// is "not held": the function takes it itself, or (a refresh past the bounded
/// wait, rule D) goes on without it.
struct HeldStoreLock: Sendable {
    private let lock: any SessionStoreLock

    fileprivate init(_ lock: any SessionStoreLock) { self.lock = lock }

    func unlock() async { await lock.unlock() }
}

/// A session ended from inside the refresh flight, which must not cancel
/// itself, holding the store's lock or not (rule D).
struct RefreshInFlight: Sendable {
    let lock: HeldStoreLock?
}

extension SessionClient {
    /// Takes the store's cross-process lock, bounded by ``SessionClientConfiguration/lockWait``.
    ///
    /// - Returns: `nil` when it could not be had in time: the caller goes on
    ///   without it (the server's reuse grace absorbs that race; waiting
    ///   forever behind a hung process would strand the person instead).
    func takeLock(for purpose: String) async -> HeldStoreLock? {
        do {
            return HeldStoreLock(try await store.lockForRefresh(waitingAtMost: configuration.lockWait))
        } catch {
            logger.warning(
                "The store's lock could not be taken; going on without it",
                metadata: ["purpose": "\(purpose)", "reason": "\(error)"])
            return nil
        }
    }

    /// Runs `body` holding the store's cross-process lock (or without it, see ``takeLock(for:)``).
    func withStoreLock<T: Sendable>(_ purpose: String, _ body: () async -> T) async -> T {
        let lock = await takeLock(for: purpose)
        let value = await body()
        await lock?.unlock()
        return value
    }

    /// Takes the store's lock only if nobody holds it (optional work: its holder writes anyway).
    func takeLockIfFree() async -> HeldStoreLock? {
        do {
            return HeldStoreLock(try await store.lockForRefresh(waitingAtMost: 0))
        } catch {
            return nil
        }
    }
}
