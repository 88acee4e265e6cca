import Foundation
import SessionCore
import SessionKit
import SessionKitTesting
import Testing

/// The sabotage the chaos run cannot see (`install-before-persist`): hold the
/// save of a refreshed session and look at what the client already exposes.
/// The real client shows the old session until the new one is on disk; the
/// sabotaged one shows the unsaved one, which a kill at that moment would lose.
struct PlantedOrderingTests {
    @Test(arguments: [false, true])
    func aRefreshedSessionIsNotVisibleBeforeItIsSaved(sabotaged: Bool) async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        await fake.createUser(email: "ada@example.com", password: "correct-horse")
        let store = HeldSaveStore()
        let client = SessionClient(
            configuration: fake.clientConfiguration(clock: clock, store: store, launchValidation: .skip, automaticRefresh: false),
            sabotage: sabotaged ? Sabotage(name: "install-before-persist") : nil)
        let old = try await client.signIn(email: "ada@example.com", password: "correct-horse")
        let gate = FakeGate()
        await store.holdNextSave(gate)
        let refresh = Task { try await client.refresh() }
        await gate.waitForArrivals(1)
        let visible = await client.currentSession
        let exposedUnsaved = visible?.refreshToken != old.refreshToken
        // The check itself: the real client passes it, the planted defect fails it.
        #expect(exposedUnsaved == sabotaged, "exposed an unsaved session: \(exposedUnsaved), sabotaged: \(sabotaged)")
        await gate.open()
        _ = try await refresh.value
        await client.shutdown()
    }
}

/// An in-memory store whose next save waits at a gate.
actor HeldSaveStore: SessionStore {
    private let base = InMemorySessionStore()
    private var gate: FakeGate?

    func holdNextSave(_ gate: FakeGate) { self.gate = gate }

    func load() async throws(SessionStoreError) -> StoredSession? { try await base.load() }

    func save(_ session: StoredSession) async throws(SessionStoreError) {
        if let gate {
            self.gate = nil
            await gate.pass()
        }
        try await base.save(session)
    }

    func clear() async throws(SessionStoreError) { try await base.clear() }
    nonisolated func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock { NoCrossProcessLock() }
}
