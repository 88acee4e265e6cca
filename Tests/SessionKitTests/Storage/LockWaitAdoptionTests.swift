import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// A refresh waiting for the store's lock while a notification of another
/// process's refresh arrives (docs/PROTOCOL.md, "The lock" and "Hearing other
/// processes"): the notification's re-read adopts the new session, and the
/// refresh, once it has the lock, must use it, not send the refresh token it
/// started from, which the other process has already rotated.
///
/// Benchmark item 2's 8-process storm found it: every worker adopted the first
/// one's session by notification, then refreshed its old token anyway (8
/// refreshes, 0 of 8 adopting), answered only by the server's reuse grace.
@Suite(.timeLimit(.minutes(1)))
struct LockWaitAdoptionTests {
    /// The refresh token replayed within the grace (`refreshReuseGrace`) gets the same successor;
    /// with none (a GoTrue whose reuse interval is 0) the replay is a reuse: the family ends.
    @Test(arguments: [SessionDefaults.refreshReuseGrace, 0])
    func aRefreshThatWaitedForTheLockUsesTheSessionHeardMeanwhile(reuseGrace: TimeInterval) async throws {
        let folder = StoreChangeTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock, reuseGrace: reuseGrace)
        await fake.createUser(email: Fixture.email, password: Fixture.password)
        // The app's refresh runs while the test holds the lock on its behalf, as the holder of the lock does.
        let app = StoreChangeTests.process(LockHeldElsewhereStore(base: FileSessionStore(directory: folder)), fake, clock)
        _ = try await StoreChangeTests.signIn(app)
        let widget = StoreChangeTests.process(FileSessionStore(directory: folder), fake, clock)
        _ = try await widget.restore()
        clock.set(to: clock.now.addingTimeInterval(SessionDefaults.accessTokenLifetime + 1))

        let held = try await FileSessionStore(directory: folder).lockForRefresh()
        let waiting = Task { try await widget.accessToken() }
        // The widget's refresh has started from the expired session and waits for the lock.
        while await widget.inflight == nil { await Task.yield() }
        let refreshed = try await app.refresh()
        clock.set(to: clock.now.addingTimeInterval(1))
        let heard = await StoreChangeTests.state(of: widget, within: StoreChangeTests.loadedMachineBound) {
            $0.session?.refreshToken == refreshed.refreshToken
        }
        #expect(heard != nil, "the widget did not hear the app's refresh")
        await held.unlock()

        let token = try await waiting.value
        #expect(token == refreshed.accessToken)
        #expect(await fake.count(.refresh) == 1)
        #expect(await widget.currentSession?.refreshToken == refreshed.refreshToken)
        await app.shutdown()
        await widget.shutdown()
    }
}

/// A process's view of the shared folder whose lock the test holds for it.
private struct LockHeldElsewhereStore: SessionStore {
    let base: FileSessionStore

    func load() async throws(SessionStoreError) -> StoredSession? { try await base.load() }
    func save(_ session: StoredSession) async throws(SessionStoreError) { try await base.save(session) }
    func clear() async throws(SessionStoreError) { try await base.clear() }
    func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock { NoCrossProcessLock() }
}
