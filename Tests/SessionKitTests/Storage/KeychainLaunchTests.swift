import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// The client on the device keychain: a launch that never sticks on
/// `restoring`, and no refresh the store could not keep (issue 26 items 7-10).
struct KeychainLaunchTests {
    typealias F = KeychainFixture

    static func make(
        _ f: F, lifecycle: ScriptedAppLifecycle? = nil
    ) async -> SessionTestEnvironment {
        await SessionTestEnvironment.make(store: f.store, launchValidation: .skip, automaticRefresh: false) {
            if let lifecycle {
                $0.appLifecycle = lifecycle
            } else {
                $0.observesAppLifecycle = false
            }
        }
    }

    /// A session saved by an earlier launch of the app, then the client of the next launch.
    static func signedInEarlier(_ f: F, lifecycle: ScriptedAppLifecycle? = nil) async throws -> SessionTestEnvironment {
        let earlier = await make(f)
        try await earlier.signIn()
        await earlier.client.shutdown()
        return await make(f, lifecycle: lifecycle)
    }

    // MARK: - Errors no unlock fixes (item 7)

    @Test func aKeychainWithoutEntitlementsLetsThePersonReachSignIn() async throws {
        let device = SimulatedDeviceKeychain()
        let f = F(keychain: device.process(accessGroups: []), accessGroup: nil)
        let env = await Self.make(f)
        let error = await #expect(throws: SessionError.storeInaccessible) { try await env.client.restore() }
        #expect(env.client.currentState == .signedOut)
        #expect(error?.isTransient == false)
        #expect(error?.underlying?.contains("-34018") == true)
        #expect(error?.underlying?.contains("entitlement") == true)
        await env.client.shutdown()
    }

    @Test func aDamagedItemIsKeptAndThePersonCanSignIn() async throws {
        let f = F()
        try f.plant(F.record())
        f.keychain.failNext(.copy, with: .decode, times: 100)
        let env = await Self.make(f)
        let error = await #expect(throws: SessionError.storeInaccessible) { try await env.client.restore() }
        #expect(env.client.currentState == .signedOut)
        #expect(error?.underlying?.contains("damaged") == true)
        #expect(f.storedData == (try F.encoded(F.record())))
        #expect(f.keychain.count(.delete) == 0)
        await env.client.shutdown()
    }

    @Test func aGroupTheTargetLacksIsNamedAndTheAppReachesSignIn() async throws {
        let f = F(keychain: SimulatedDeviceKeychain().process(accessGroups: [F.widgetGroup]))
        let env = await Self.make(f)
        let error = await #expect(throws: SessionError.storeInaccessible) { try await env.client.restore() }
        #expect(error?.underlying?.contains(F.sharedGroup) == true)
        #expect(env.client.currentState == .signedOut)
        await env.client.shutdown()
    }

    @Test func aNewerAppsRecordLetsThePersonReachSignInAndIsKept() async throws {
        let f = F()
        let newer = Data(#"{"version": 5}"#.utf8)
        f.keychain.plant(newer, for: f.item)
        let env = await Self.make(f)
        await #expect(throws: SessionError.storeInaccessible) { try await env.client.restore() }
        #expect(env.client.currentState == .signedOut)
        #expect(f.storedData == newer)
        await env.client.shutdown()
    }

    // MARK: - Retried by itself (item 8)

    /// A launch before the first unlock: the store cannot be read yet.
    static func lockedLaunch(lifecycle: ScriptedAppLifecycle? = nil) async throws -> (F, SessionTestEnvironment) {
        let f = F()
        let env = try await signedInEarlier(f, lifecycle: lifecycle)
        await f.protectedData.setAvailable(false)
        f.keychain.lockBeforeFirstUnlock(answering: .itemNotFound)
        await #expect(throws: SessionError.storeUnavailable) { try await env.client.restore() }
        #expect(env.client.currentState == .restoring)
        return (f, env)
    }

    static func unlock(_ f: F) async {
        f.keychain.unlock()
        await f.protectedData.setAvailable(true)
    }

    @Test(arguments: [AppLifecycleEvent.protectedDataDidBecomeAvailable, .didBecomeActive])
    func aLockedLaunchIsReadAgainOnTheAppsEvents(_ event: AppLifecycleEvent) async throws {
        let lifecycle = ScriptedAppLifecycle()
        let (f, env) = try await Self.lockedLaunch(lifecycle: lifecycle)
        #expect(await lifecycle.waitForSubscribers(count: 1))
        await Self.unlock(f)
        lifecycle.send(event)
        #expect(await eventually { env.client.currentState.isSignedIn })
        await env.client.shutdown()
    }

    @Test func aLockedLaunchIsReadAgainOnABoundedTimer() async throws {
        let (f, env) = try await Self.lockedLaunch()
        #expect(await env.clock.waitForSleepers(count: 1))
        // Still locked at the first timed read: it arms the next one.
        let reads = f.keychain.count(.copy)
        await env.clock.advance(by: SessionClient.restoreRetryDelays[0])
        #expect(await eventually { f.keychain.count(.copy) > reads })
        #expect(env.client.currentState == .restoring)
        await Self.unlock(f)
        #expect(await env.clock.waitForSleepers(count: 1))
        await env.clock.advance(by: SessionClient.restoreRetryDelays[1])
        #expect(await eventually { env.client.currentState.isSignedIn })
        await env.client.shutdown()
    }

    @Test func theTimedReadsStopAfterTheLastDelay() async throws {
        let (f, env) = try await Self.lockedLaunch()
        for delay in SessionClient.restoreRetryDelays {
            #expect(await env.clock.waitForSleepers(count: 1))
            await env.clock.advance(by: delay)
        }
        for _ in 0..<1000 { await Task.yield() }
        let reads = f.keychain.count(.copy)
        await env.clock.advance(by: 86_400)
        for _ in 0..<1000 { await Task.yield() }
        #expect(f.keychain.count(.copy) == reads)
        #expect(env.client.currentState == .restoring)
        await env.client.shutdown()
    }

    /// Issue 31, row 5, seen in the chaos harness beside a loaded CPU: a timed
    /// re-read started on the locked device; the person unlocked and opened
    /// the app while it ran, and the activation was dropped because a read
    /// was in flight. That read then failed, and nothing read again.
    @Test func anUnlockDuringAReadInFlightIsNotLost() async throws {
        let store = LockedLaunchStore()
        try await store.base.save(KeychainFixture.record())
        let lifecycle = ScriptedAppLifecycle()
        let env = await SessionTestEnvironment.make(store: store, launchValidation: .skip, automaticRefresh: false) {
            $0.appLifecycle = lifecycle
        }
        await #expect(throws: SessionError.storeUnavailable) { try await env.client.restore() }
        #expect(await lifecycle.waitForSubscribers(count: 1))
        #expect(await env.clock.waitForSleepers(count: 1))
        let gate = FakeGate()
        await store.holdNextLoad(gate)
        await env.clock.advance(by: SessionClient.restoreRetryDelays[0])
        await gate.waitForArrivals()
        // The timed read asked the locked keychain; now the person unlocks and opens the app.
        await store.unlock()
        lifecycle.send(.didBecomeActive)
        for _ in 0..<1000 { await Task.yield() }
        await gate.open()
        #expect(await eventually { env.client.currentState.isSignedIn })
        await env.client.shutdown()
    }

    // MARK: - A second restore (item 9)

    @Test func aSecondRestoreWhileSignedOutNeverShowsRestoring() async throws {
        let env = await Self.make(F())
        _ = try await env.client.restore()
        #expect(env.client.currentState == .signedOut)
        let seen = StateLog(env.client)
        #expect(await eventually { seen.states == [.signedOut] })
        _ = try await env.client.restore()
        await env.client.shutdown()
        let states = await seen.finished()
        #expect(!states.contains(.restoring))
    }

    // MARK: - The lifecycle from the first use (item 10)

    @Test func theLazyRestoreFollowsTheLifecycle() async throws {
        let lifecycle = ScriptedAppLifecycle()
        let env = try await Self.signedInEarlier(F(), lifecycle: lifecycle)
        _ = try await env.client.accessToken()  // no restore(): the first call reads the store
        #expect(await lifecycle.waitForSubscribers(count: 1))
        env.expireAccessToken()
        lifecycle.send(.didBecomeActive)
        #expect(await eventually { await env.backend.count(.refresh) == 1 })
        await env.client.shutdown()
    }

    // MARK: - No refresh the store cannot keep (item 11)

    @Test func noRefreshIsSentWhileTheStoreIsOutOfReach() async throws {
        let f = F(accessibility: .whenUnlockedThisDeviceOnly)
        let env = await Self.make(f)
        let session = try await env.signIn()
        // The app runs in the background on a locked device: a when-unlocked item is out of reach.
        f.keychain.device.lockScreen()
        await f.protectedData.setAvailable(false)
        await #expect(throws: SessionError.storeUnavailable) { try await env.client.refresh() }
        #expect(await env.backend.count(.refresh) == 0)
        #expect(await env.client.currentSession?.refreshToken == session.refreshToken)
        await env.client.shutdown()
    }
}

/// Every state a client publishes, from subscription to shutdown.
final class StateLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [SessionState] = []
    private var task: Task<Void, Never>?

    init(_ client: SessionClient) {
        let stream = client.states
        task = Task { [weak self] in
            for await state in stream { self?.append(state) }
        }
    }

    private func append(_ state: SessionState) { lock.withLock { seen.append(state) } }

    var states: [SessionState] { lock.withLock { seen } }

    /// The states once the stream has finished (the client shut down).
    func finished() async -> [SessionState] {
        await task?.value
        return states
    }
}

#if canImport(Observation)
/// The DocC sample (`.task { await model.run() }`) on a launch before the first unlock.
@MainActor
struct KeychainModelTests {
    @Test func theSamplesModelLeavesRestoringOnceTheDeviceIsUnlocked() async throws {
        let lifecycle = ScriptedAppLifecycle()
        let f = KeychainFixture()
        let env = try await KeychainLaunchTests.signedInEarlier(f, lifecycle: lifecycle)
        await f.protectedData.setAvailable(false)
        f.keychain.lockBeforeFirstUnlock(answering: .itemNotFound)
        let model = SessionModel(client: env.client)
        let run = Task { await model.run() }
        #expect(await SessionModelTests.until { model.lastError == .storeUnavailable })
        #expect(model.phase == .restoring)
        #expect(await lifecycle.waitForSubscribers(count: 1))

        await KeychainLaunchTests.unlock(f)
        lifecycle.send(.protectedDataDidBecomeAvailable)
        #expect(await SessionModelTests.until { model.phase == .signedIn })
        #expect(await SessionModelTests.until { model.lastError == nil })
        await env.client.shutdown()
        run.cancel()
        await run.value
    }
}
#endif

/// An app extension has no `UIApplication` to ask whether the device was unlocked.
struct KeychainExtensionProtectedDataTests {
    typealias F = KeychainFixture

    /// A widget reloaded after a restart, before the first unlock, on iOS 15 and later.
    static func widgetBeforeFirstUnlock(
        protectedData: (InMemoryKeychain) -> any ProtectedDataAvailability
    ) async throws -> (InMemoryKeychain, KeychainSessionStore) {
        let device = SimulatedDeviceKeychain()
        let app = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]))
        try await app.store.save(F.record())
        device.restart()  // answers errSecItemNotFound for the item that is there
        let widget = device.process(accessGroups: [F.sharedGroup, F.widgetGroup])
        let store = KeychainSessionStore(
            keychain: widget, accessGroup: F.sharedGroup, previousServices: [], protectedData: protectedData(widget))
        return (widget, store)
    }

    @Test func alwaysAvailableTakesALockedDeviceForNoSession() async throws {
        // Why the probe exists: the world the old extension snippet assumed is not iOS 15's.
        let (_, store) = try await Self.widgetBeforeFirstUnlock { _ in AlwaysAvailableProtectedData() }
        #expect(try await store.load() == nil)
    }

    @Test func theKeychainProbeSaysTheDeviceIsLocked() async throws {
        let (widget, store) = try await Self.widgetBeforeFirstUnlock {
            KeychainProbeProtectedData(keychain: $0, accessGroup: F.sharedGroup)
        }
        await #expect(throws: SessionStoreError.deviceLocked("")) { try await store.load() }
        widget.device.unlock()
        #expect(try await store.load() == F.record())
        // The probe leaves nothing behind.
        #expect(widget.allItems.map(\.service) == [KeychainSessionStore.defaultService])
    }

    @Test func theProbeFollowsTheItemsClassWhileLocked() async {
        let device = SimulatedDeviceKeychain()
        let widget = device.process(accessGroups: [F.sharedGroup])
        device.lockScreen()
        #expect(await KeychainProbeProtectedData(keychain: widget).isAvailable)
        #expect(await !KeychainProbeProtectedData(keychain: widget, accessibility: .whenUnlockedThisDeviceOnly).isAvailable)
        // A probe left behind by a killed process does not read as locked.
        widget.plant(Data([1]), for: KeychainItem(service: KeychainProbeProtectedData.probeService, account: "probe"))
        #expect(await KeychainProbeProtectedData(keychain: widget).isAvailable)
        #expect(widget.allItems.isEmpty)
    }
}

/// A store whose device is locked until ``unlock()``: a read answers as the
/// device was when the read began, as a keychain call that started before the
/// unlock does. A read can be held at a gate.
actor LockedLaunchStore: SessionStore {
    let base = InMemorySessionStore()
    private var locked = true
    private var gate: FakeGate?

    func unlock() { locked = false }
    func holdNextLoad(_ gate: FakeGate) { self.gate = gate }

    func load() async throws(SessionStoreError) -> StoredSession? {
        let wasLocked = locked
        if let gate {
            self.gate = nil
            await gate.pass()
        }
        if wasLocked { throw .deviceLocked("the keychain answered errSecItemNotFound before the first unlock") }
        return try await base.load()
    }

    func save(_ session: StoredSession) async throws(SessionStoreError) { try await base.save(session) }
    func clear() async throws(SessionStoreError) { try await base.clear() }
    func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock { NoCrossProcessLock() }
}
