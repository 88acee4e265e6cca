import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// Nothing is written after it stopped being true, and no process pushes
/// the store back.
@Suite(.timeLimit(.minutes(1)))
struct OrderingTests {
    @Test func aSlowSignOutDoesNotWipeTheNextSignIn() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        let gate = FakeGate()
        await f.fake.inject(.hold(gate), on: .logout)
        let signOut = Task { try await f.client.signOut() }
        await gate.waitForArrivals(1)
        // The person signs in again while the server still handles the sign-out.
        let again = try await f.signIn()
        await gate.open()
        try await signOut.value
        #expect(try await f.storedRefreshToken() == again.refreshToken)
        #expect(f.client.currentState == .signedIn(again))
        #expect(await f.client.currentSession == again)
    }

    @Test func aSaveRetriedAfterASignOutDoesNotWriteTheOldSessionBack() async throws {
        let store = GatedStore()
        let f = await Fixture.make(store: store, automaticRefresh: true)
        try await f.signIn()
        await store.failNextSaves(1)
        _ = try await f.client.refresh()  // saved in memory only; the write is retried
        let gate = FakeGate()
        await store.holdNextSave(gate)
        await f.clock.advance(by: 2)  // the retry starts and is held at the disk
        await gate.waitForArrivals(1)
        let signOut = Task { try await f.client.signOut() }
        await gate.open()
        try await signOut.value
        await f.clock.advance(by: 600)
        #expect(try await store.load()?.holdsSession != true)
        #expect(f.client.currentState == .signedOut)
        await f.client.shutdown()
    }

    /// The retry waits for the lock while a sign-out runs to its end: once it
    /// has the lock it must see that the session it was saving is gone.
    @Test func aSaveRetryWaitingForTheLockDoesNotWriteBackAfterASignOut() async throws {
        let store = GatedStore()
        let f = await Fixture.make(store: store, automaticRefresh: true)
        try await f.signIn()
        await store.failNextSaves(1)
        _ = try await f.client.refresh()
        let gate = FakeGate()
        await store.holdNextLock(gate)
        await f.clock.advance(by: 2)  // the retry starts and waits for the lock
        await gate.waitForArrivals(1)
        try await f.client.signOut()  // runs to its end meanwhile
        await gate.open()
        await f.clock.advance(by: 600)
        #expect(try await store.load()?.holdsSession != true)
        #expect(f.client.currentState == .signedOut)
        await f.client.shutdown()
    }

    /// The model's first finding: a refresh on top of an unsaved refresh puts
    /// the store two rotations behind the server, and a kill then presents a
    /// token the server calls reused. The unsaved session is saved first, or
    /// nothing is sent.
    @Test func noRefreshStandsOnAnUnsavedOne() async throws {
        let store = GatedStore()
        let f = await Fixture.make(store: store)
        let first = try await f.signIn()
        await store.failNextSaves(2)
        let second = try await f.client.refresh()  // rotated; its save failed (kept in memory)
        await #expect(throws: SessionError.persistenceFailed) { try await f.client.refresh() }
        #expect(await f.fake.count(.refresh) == 1, "a second rotation was sent on top of an unsaved one")
        #expect(try await store.load()?.refreshToken == first.refreshToken)
        // Once the disk works, the unsaved session is saved before anything is rotated.
        let third = try await f.client.refresh()
        let stored = try #require(try await store.load())
        #expect(stored.refreshToken == third.refreshToken)
        #expect(await f.fake.count(.refresh) == 2)
        #expect(await f.fake.isFamilyActive(refreshToken: third.refreshToken))
        _ = second
    }

    /// Two processes on one store: the one behind starts an OAuth sign-in
    /// (which writes the store) after the other refreshed twice.
    @Test func aProcessBehindNeverPushesTheStoreBack() async throws {
        let shared = InMemorySessionStore()
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let app = await Fixture.make(store: shared, clock: clock, fake: fake)
        let widget = await Fixture.make(store: shared, clock: clock, fake: fake)
        try await app.signIn()
        _ = try await widget.client.restore()
        _ = try await app.client.refresh()
        let latest = try await app.client.refresh()
        _ = try await widget.client.signInWithOAuth(provider: "strava", redirectTo: URL(string: "myapp://cb")!)
        let stored = try #require(try await shared.load())
        #expect(stored.refreshToken == latest.refreshToken)
        #expect(stored.pkceVerifier != nil)
        // And the widget, two rotations behind, refreshes from the store, not from its old token.
        clock.set(to: clock.now.addingTimeInterval(SessionDefaults.accessTokenLifetime + 1))
        _ = try await widget.client.accessToken()
        #expect(await fake.isFamilyActive(refreshToken: try #require(try await shared.load()).refreshToken))
    }

    @Test func storedRecordsCarryAnIncreasingSequence() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        let first = try #require(try await f.store.load()).sequence
        _ = try await f.client.refresh()
        let second = try #require(try await f.store.load()).sequence
        #expect(first >= 1)
        #expect(second == first + 1)
    }

    /// Adoption hands back what another process wrote; if that has expired
    /// meanwhile, it is refreshed before anyone uses it.
    @Test func anAdoptedSessionIsCheckedForExpiry() async throws {
        let shared = InMemorySessionStore()
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let app = await Fixture.make(store: shared, clock: clock, fake: fake)
        let widget = await Fixture.make(store: shared, clock: clock, fake: fake)
        try await app.signIn()
        _ = try await widget.client.restore()
        _ = try await app.client.refresh()  // the store moves ahead of the widget
        clock.set(to: clock.now.addingTimeInterval(SessionDefaults.accessTokenLifetime + 1))
        let token = try await widget.client.accessToken()
        let exp = try #require(try UnverifiedJWT(token).claims.exp)
        #expect(exp > clock.now)
        #expect(await fake.count(.refresh) == 2)
    }

    @Test func aGlobalSignOutSaysWhenOtherDevicesWereNotSignedOut() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        await f.fake.inject(.goTrueError(status: 401, code: .badJWT, message: "invalid JWT"), on: .logout)
        await #expect(throws: SessionError.signOutIncomplete) { try await f.client.signOut(scope: .global) }
        #expect(f.client.currentState == .signedOut)
        #expect(try await f.store.load()?.holdsSession != true)
    }

    @Test func aGlobalSignOutOfflineSaysSo() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        await f.fake.inject(.drop(.notConnectedToInternet), on: .logout)
        await #expect(throws: SessionError.signOutIncomplete) { try await f.client.signOut(scope: .global) }
        #expect(try await f.store.load()?.holdsSession != true)
    }

    @Test func aGlobalSignOutTheServerConfirmsSignsOutTheOtherDevices() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let phone = await Fixture.make(clock: clock, fake: fake)
        let laptop = await Fixture.make(clock: clock, fake: fake)
        try await phone.signIn()
        try await laptop.signIn()
        try await phone.client.signOut(scope: .global)
        await #expect(throws: SessionError.sessionExpired) { try await laptop.client.refresh() }
    }

    /// The end of a session is announced only once the store says so. While
    /// the end is being written, a process killed there must have told
    /// nobody: its next launch finds the session, ends it and says so, once.
    /// Announced before the write, the app heard `sessionExpired` twice (a CI
    /// chaos run: the app was killed while it cleared the store, and the
    /// relaunch ended the same session again).
    @Test func anEndedSessionIsAnnouncedOnlyOnceTheStoreHoldsTheEnd() async throws {
        let store = GatedStore()
        let f = await Fixture.make(store: store)
        let session = try await f.signIn()
        let seen = SeenEvents(f.client)
        await f.fake.revokeFamily(ofRefreshToken: session.refreshToken)
        let gate = FakeGate()
        await store.holdNextSave(gate)  // the record of the end
        let refresh = Task { try await f.client.refresh() }
        await gate.waitForArrivals(1)
        let announcedEarly = await eventually(maxYields: 2_000) { seen.expiredCount > 0 }
        #expect(!announcedEarly, "sessionExpired was published before the end was saved")
        #expect(f.client.currentState == .signedIn(session))
        await gate.open()
        await #expect(throws: SessionError.self) { try await refresh.value }
        #expect(await eventually { seen.expiredCount == 1 })
        #expect(f.client.currentState.isSignedIn == false)
        #expect(try await store.load()?.holdsSession != true)
        await f.client.shutdown()
    }
}

/// The events one subscription has seen so far, readable while it runs.
final class SeenEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SessionEvent] = []
    private var task: Task<Void, Never>?

    init(_ client: SessionClient) {
        let stream = client.events
        task = Task { [weak self] in
            for await event in stream { self?.append(event) }
        }
    }

    private func append(_ event: SessionEvent) { lock.withLock { events.append(event) } }

    var expiredCount: Int { lock.withLock { events.expiredCount } }
}
