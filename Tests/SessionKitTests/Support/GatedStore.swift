import Foundation
import SessionCore
@testable import SessionKit
import SessionKitTesting

/// A store whose loads or saves can be held at a gate or made to fail, to
/// put a second call in the middle of one (the races the client must survive).
actor GatedStore: SessionStore {
    let base = InMemorySessionStore()
    private var loadGate: FakeGate?
    private var saveGate: FakeGate?
    private var lockGate: FakeGate?
    private var failingSaves = 0
    private(set) var saves: [StoredSession] = []

    func holdNextLoad(_ gate: FakeGate) { loadGate = gate }
    func holdNextSave(_ gate: FakeGate) { saveGate = gate }
    func failNextSaves(_ count: Int) { failingSaves = count }
    func holdNextLock(_ gate: FakeGate) { lockGate = gate }
    func seed(_ record: StoredSession) async throws { try await base.save(record) }

    func load() async throws(SessionStoreError) -> StoredSession? {
        if let gate = loadGate {
            loadGate = nil
            await gate.pass()
        }
        return try await base.load()
    }

    func save(_ session: StoredSession) async throws(SessionStoreError) {
        if failingSaves > 0 {
            failingSaves -= 1
            throw .writeFailed("injected")
        }
        if let gate = saveGate {
            saveGate = nil
            // Decide what to write before waiting, as a real write that is slow to land does.
            await gate.pass()
        }
        saves.append(session)
        try await base.save(session)
    }

    func clear() async throws(SessionStoreError) { try await base.clear() }
    func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        if let gate = lockGate {
            lockGate = nil
            await gate.pass()
        }
        return NoCrossProcessLock()
    }
}
