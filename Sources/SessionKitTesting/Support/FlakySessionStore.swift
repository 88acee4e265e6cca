import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// Wraps a store and makes chosen operations fail, to test what the client
/// does when the disk or keychain misbehaves.
public actor FlakySessionStore: SessionStore {
    private let base: any SessionStore
    private var failingSaves = 0
    private var failingLoads = 0
    /// Saves attempted, failed or not.
    public private(set) var saveAttempts = 0

    public init(wrapping base: some SessionStore) {
        self.base = base
    }

    /// Makes the next `count` saves fail with ``SessionStoreError/writeFailed(_:)``.
    public func failNextSaves(_ count: Int) { failingSaves = count }

    /// Makes the next `count` loads fail with ``SessionStoreError/readFailed(_:)``.
    public func failNextLoads(_ count: Int) { failingLoads = count }

    public func load() async throws(SessionStoreError) -> StoredSession? {
        if failingLoads > 0 {
            failingLoads -= 1
            throw .readFailed("injected read failure")
        }
        return try await base.load()
    }

    public func save(_ session: StoredSession) async throws(SessionStoreError) {
        saveAttempts += 1
        if failingSaves > 0 {
            failingSaves -= 1
            throw .writeFailed("injected write failure")
        }
        try await base.save(session)
    }

    public func clear() async throws(SessionStoreError) { try await base.clear() }

    public nonisolated func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        try await base.lockForRefresh()
    }
}
