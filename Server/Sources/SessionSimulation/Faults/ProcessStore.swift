import Foundation
import SessionKit

/// The store as one simulated process sees it: the shared `FileSessionStore`
/// directory, cut off once the process is dead, and able to die in the middle
/// of a write (before the atomic rename, so the old record stays on disk).
public struct ProcessStore: SessionStore {
    let base: FileSessionStore
    let process: SimulatedProcess
    let dropsWrites: Bool

    public init(directory: URL, process: SimulatedProcess, dropsWrites: Bool = false) {
        self.base = FileSessionStore(directory: directory)
        self.process = process
        self.dropsWrites = dropsWrites
    }

    public func load() async throws(SessionStoreError) -> StoredSession? {
        if process.isDead { throw .readFailed("the process was killed") }
        return try await base.load()
    }

    public func save(_ session: StoredSession) async throws(SessionStoreError) {
        if process.takeSaveKill() { throw .writeFailed("the process was killed before the rename") }
        if process.isDead { throw .writeFailed("the process was killed") }
        if dropsWrites { return }
        try await base.save(session)
    }

    public func clear() async throws(SessionStoreError) {
        if process.isDead { throw .deleteFailed("the process was killed") }
        try await base.clear()
    }

    public func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        if process.isDead { throw .lockFailed("the process was killed") }
        return try await base.lockForRefresh()
    }

    public func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        if process.isDead { throw .lockFailed("the process was killed") }
        return try await base.lockForRefresh(waitingAtMost: seconds)
    }
}
