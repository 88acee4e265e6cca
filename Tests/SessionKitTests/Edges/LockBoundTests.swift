import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// A process that holds the store's lock and never lets go (stopped in a
/// debugger, suspended by the system) cannot freeze the others.
@Suite(.timeLimit(.minutes(1)))
struct LockBoundTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
    }

    @Test func aHungLockHolderDoesNotFreezeTheClient() async throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = FileSessionStore(directory: dir)
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let f = await Fixture.make(store: store, clock: clock, fake: fake)
        try await f.signIn()
        // Another "process" (its own descriptor) takes the lock and hangs.
        let hung = try await FileSessionStore(directory: dir).lockForRefresh()
        let client = SessionClient(configuration: {
            var c = fake.clientConfiguration(clock: clock, store: store, automaticRefresh: false)
            c.lockWait = 0.2
            return c
        }())
        f.expireAccessToken()
        // Bounded in real time: an unbounded lock wait would hang here forever.
        let done = DoneFlag()
        let work = Task {
            defer { done.set() }
            let token = try await client.accessToken()
            #expect(try UnverifiedJWT(token).claims.exp.map { $0 > clock.now } == true)
            try await client.signOut()
            await client.shutdown()
        }
        let finished = await done.wait(upTo: .seconds(20))
        #expect(finished, "the client froze behind a hung lock holder")
        if !finished { work.cancel() }
        await hung.unlock()
        try await work.value
    }

    @Test func theLockWaitIsCancellable() async throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("session.lock").path
        let held = try await FileLock.acquire(path: path)
        let waiter = Task { try await FileLock.acquire(path: path) }
        try await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        await #expect(throws: SessionStoreError.self) { try await waiter.value }
        await held.unlock()
    }

    @Test func theLockWaitIsBounded() async throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("session.lock").path
        let held = try await FileLock.acquire(path: path)
        let started = ContinuousClock.now
        await #expect(throws: SessionStoreError.self) { try await FileLock.acquire(path: path, timeout: 0.1) }
        #expect(ContinuousClock.now - started < .seconds(5))
        await held.unlock()
        // Free again: taken at once.
        let again = try await FileLock.acquire(path: path, timeout: 0.1)
        await again.unlock()
    }

    @Test func aRefreshHoldsABackgroundActivityWhileItHoldsTheLock() async throws {
        let recorder = ActivityRecorder()
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let f = await Fixture.make(clock: clock, fake: fake)
        try await f.signIn()
        let client = SessionClient(configuration: {
            var c = fake.clientConfiguration(clock: clock, store: f.store, automaticRefresh: false)
            c.backgroundActivity = recorder
            return c
        }())
        _ = try await client.restore()
        _ = try await client.refresh()
        #expect(recorder.begun == 1)
        #expect(recorder.ended == 1)
    }
}

/// Set once by a task when it ends; waited for with a real-time bound.
final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() { lock.withLock { flag = true } }
    var isSet: Bool { lock.withLock { flag } }

    /// - Returns: whether it was set within `limit`.
    func wait(upTo limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if isSet { return true }
            do { try await Task.sleep(for: .milliseconds(20)) } catch { return false }
        }
        return isSet
    }
}

/// Counts background activities begun and ended.
final class ActivityRecorder: BackgroundActivityProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (begun: 0, ended: 0)
    var begun: Int { lock.withLock { counts.begun } }
    var ended: Int { lock.withLock { counts.ended } }

    func begin(_ reason: String) -> any BackgroundActivity {
        lock.withLock { counts.begun += 1 }
        return Handle(recorder: self)
    }

    fileprivate func end() { lock.withLock { counts.ended += 1 } }

    private struct Handle: BackgroundActivity {
        let recorder: ActivityRecorder
        func end() { recorder.end() }
    }
}
