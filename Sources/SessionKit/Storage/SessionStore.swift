import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a session lives between launches.
///
/// One record holds tokens, expiry and user (``StoredSession``). A store also
/// owns the lock that keeps refreshes single-flight across processes sharing
/// it: ``SessionClient`` takes it, re-reads the record (another process may
/// have refreshed already), refreshes only if needed, saves, then unlocks.
public protocol SessionStore: Sendable {
    /// Reads the record.
    ///
    /// - Returns: `nil` when no session is stored.
    /// - Throws: ``SessionStoreError`` when a record exists but cannot be read;
    ///   never `nil` for an unreadable record.
    func load() async throws(SessionStoreError) -> StoredSession?

    /// Saves `session`, verified: it returns only once the record reads back identical.
    func save(_ session: StoredSession) async throws(SessionStoreError)

    /// Deletes the record; deleting nothing is not an error.
    func clear() async throws(SessionStoreError)

    /// Takes the refresh lock shared with every other user of the same store.
    ///
    /// - Returns: a handle; call ``SessionStoreLock/unlock()`` exactly once.
    func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock

    /// Takes the lock, waiting at most `seconds` (real time) and giving up when the task is cancelled.
    ///
    /// The default waits as ``lockForRefresh()`` does; stores with a
    /// cross-process lock implement the bound so a hung holder cannot freeze
    /// other processes.
    func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock

    /// Tells other processes sharing the store that it changed, and hears them; `nil` by default
    /// (``StoreChangeNotifier``; docs/PROTOCOL.md, "Hearing other processes").
    var changeNotifier: (any StoreChangeNotifier)? { get }
}

extension SessionStore {
    public func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        try await lockForRefresh()
    }
}

/// A held refresh lock.
public protocol SessionStoreLock: Sendable {
    /// Releases the lock. Idempotent.
    func unlock() async
}

/// A lock that excludes nothing: for stores only one process can see.
public struct NoCrossProcessLock: SessionStoreLock {
    public init() {}
    public func unlock() async {}
}
