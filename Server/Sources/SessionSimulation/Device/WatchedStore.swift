import Foundation
import SessionKit

/// A store seen through one client: counts that client's calls, so a
/// dropped client that still reads or writes is seen.
struct WatchedStore: SessionStore {
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }

    let base: any SessionStore
    let calls = Calls()

    func load() async throws(SessionStoreError) -> StoredSession? {
        calls.add()
        return try await base.load()
    }

    func save(_ session: StoredSession) async throws(SessionStoreError) {
        calls.add()
        try await base.save(session)
    }

    func clear() async throws(SessionStoreError) {
        calls.add()
        try await base.clear()
    }

    func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        calls.add()
        return try await base.lockForRefresh()
    }

    func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        calls.add()
        return try await base.lockForRefresh(waitingAtMost: seconds)
    }
}
