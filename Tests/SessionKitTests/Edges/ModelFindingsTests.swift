import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The model's findings 2, 3 and 4 (docs/PROTOCOL.md, "What the model
/// found"), each replayed through the real client against the fake backend:
/// every test walks the model's counterexample step by step and failed
/// before its fix.
@Suite(.timeLimit(.minutes(1)))
struct ModelFindingsTests {
    /// Finding 2: C1 gives up waiting for the lock and refreshes; its answer
    /// arrives late, after C2 has rotated twice and saved. C1's save must not
    /// push the store back to the token C2 has already rotated away.
    @Test func aRefreshWithoutTheLockNeverPushesTheStoreBack() async throws {
        let shared = InMemorySessionStore()
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let app = await Fixture.make(store: shared, clock: clock, fake: fake)  // C2
        let widgetStore = LockTimingOutStore(shared, timeouts: 1)
        let widget = await Fixture.make(store: widgetStore, clock: clock, fake: fake)  // C1
        try await app.signIn()
        _ = try await widget.client.restore()
        let late = FakeGate()
        await fake.inject(.holdAnswer(late), on: .refresh)
        app.expireAccessToken()
        // C1: the lock wait runs out, it re-reads (nothing newer), sends token 1; the server rotates 1 -> 2.
        let c1 = Task { try await widget.client.accessToken() }
        await late.waitForArrivals(1)
        // C2: token 1 within the grace (-> 2), saved; then 2 -> 3, saved.
        _ = try await app.client.refresh()
        let latest = try await app.client.refresh()
        #expect(try await shared.load()?.refreshToken == latest.refreshToken)
        // C1's answer (token 2) arrives now.
        await late.open()
        _ = try await c1.value
        let stored = try #require(try await shared.load())
        #expect(stored.refreshToken == latest.refreshToken, "a late save pushed the store back to an older token")
        #expect(await widget.client.currentSession?.refreshToken == latest.refreshToken)
        #expect(await fake.isFamilyActive(refreshToken: stored.refreshToken))
    }

    /// Finding 3: without the lock, correctness rests on the server's grace.
    /// A proactive refresh (the token is still good) is not worth that risk:
    /// it waits for the lock another time; only an unusable token goes without.
    @Test func aProactiveRefreshNeverGoesWithoutTheLock() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let store = LockTimingOutStore(InMemorySessionStore(), timeouts: .max)
        let f = await Fixture.make(store: store, clock: clock, fake: fake, automaticRefresh: true)
        let session = try await f.signIn()
        // Two minutes before expiry: the proactive refresh (five minutes
        // ahead) is due, the token still good, the lock cannot be had.
        let lifetime = try #require(session.lifetime)
        await f.clock.advance(by: lifetime - 120)
        #expect(await fake.count(.refresh) == 0, "a proactive refresh went ahead without the store's lock")
        #expect(await f.client.currentSession?.refreshToken == session.refreshToken)
        // Once the token is unusable, a refresh goes without the lock (rule D), re-reading first.
        f.expireAccessToken()
        _ = try await f.client.accessToken()
        #expect(await fake.count(.refresh) == 1)
        await f.client.shutdown()
    }

    /// Finding 4: a sign-out that deleted the record lost its sequence. The
    /// widget had seen more than the app; the app signed out and in again,
    /// and its new record looked older than the session the widget then
    /// ended, so the widget deleted the new sign-in.
    @Test func aSignOutKeepsTheSequenceSoTheNextSignInIsNotMistakenForAnOldOne() async throws {
        let shared = InMemorySessionStore()
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let app = await Fixture.make(store: shared, clock: clock, fake: fake)  // C0
        let widget = await Fixture.make(store: shared, clock: clock, fake: fake)  // C1
        try await app.signIn()
        _ = try await widget.client.restore()
        for _ in 0..<3 { _ = try await widget.client.refresh() }  // the widget has seen sequence 4, the app 1
        try await app.client.signOut()
        let again = try await app.signIn()
        widget.expireAccessToken()
        // The widget's old session is over; the store's new sign-in is further along.
        _ = try? await widget.client.accessToken()
        // (The widget adopted it, and refreshed it: the clock is shared.)
        let stored = try #require(try await shared.load(), "the new sign-in was deleted")
        #expect(stored.holdsSession, "the new sign-in was deleted")
        #expect(stored.session.sessionID == again.sessionID)
        #expect(await fake.isFamilyActive(refreshToken: stored.refreshToken))
        // The app, at its next refresh, is still signed in.
        app.expireAccessToken()
        _ = try await app.client.accessToken()
        #expect(app.client.currentState.session != nil)
    }

    /// Without session ids (a custom backend), the sequence alone must tell a
    /// new sign-in from the ended session: a sign-out leaves a record that
    /// holds no session, only the sequence.
    @Test func aSignOutLeavesARecordWithTheSequenceAndNoToken() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        _ = try await f.client.refresh()
        let before = try #require(try await f.store.load()).sequence
        try await f.client.signOut()
        let after = try #require(try await f.store.load())
        #expect(!after.holdsSession)
        #expect(after.accessToken.isEmpty && after.refreshToken.isEmpty)
        #expect(after.sequence > before)
        let again = try await f.signIn()
        #expect(try #require(try await f.store.load()).sequence > after.sequence)
        #expect(f.client.currentState == .signedIn(again))
    }
}

/// A view of a shared store whose lock wait runs out (as behind a hung
/// holder) the first `timeouts` times; everything else goes to `base`.
actor LockTimingOutStore: SessionStore {
    let base: any SessionStore
    private var timeouts: Int

    init(_ base: any SessionStore, timeouts: Int) {
        self.base = base
        self.timeouts = timeouts
    }

    func load() async throws(SessionStoreError) -> StoredSession? { try await base.load() }
    func save(_ session: StoredSession) async throws(SessionStoreError) { try await base.save(session) }
    func clear() async throws(SessionStoreError) { try await base.clear() }
    func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        try await lockForRefresh(waitingAtMost: SessionDefaults.lockWait)
    }
    func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        if timeouts > 0 {
            timeouts -= 1
            throw .lockFailed("held by another process for more than \(Int(seconds)) s (test)")
        }
        return try await base.lockForRefresh(waitingAtMost: seconds)
    }
}
