import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A store that lives as long as the process: for tests, previews and
/// apps that must not keep a session across launches.
public actor InMemorySessionStore: SessionStore {
    private var record: StoredSession?

    public init(_ record: StoredSession? = nil) {
        self.record = record
    }

    public func load() async throws(SessionStoreError) -> StoredSession? { record }

    public func save(_ session: StoredSession) async throws(SessionStoreError) { record = session }

    public func clear() async throws(SessionStoreError) { record = nil }

    /// Refreshes are already single-flight inside one ``SessionClient``, and no
    /// other process can see this store.
    public nonisolated func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        NoCrossProcessLock()
    }
}
