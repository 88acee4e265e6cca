import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// When the system takes the background time back in the middle of a refresh,
/// the refresh is cancelled and the store's lock released: a process suspended
/// holding a lock in a shared container is killed (0xdead10cc). Issue 26 item 12.
@Suite(.timeLimit(.minutes(1)))
struct BackgroundExpiryTests {
    @Test func runningOutOfBackgroundTimeCancelsTheRefreshAndReleasesTheLock() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("expiry-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = FileSessionStore(directory: dir)
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let f = await Fixture.make(store: store, clock: clock, fake: fake)
        try await f.signIn()
        let activities = ExpirableActivities()
        let client = SessionClient(configuration: {
            var c = fake.clientConfiguration(clock: clock, store: store, automaticRefresh: false)
            c.backgroundActivity = activities
            c.observesAppLifecycle = false
            // The refresh request hangs (a slow network) until cancelled, as URLSession's does.
            c.transport = ClosureTransport { request in
                if FakeAuthBackend.endpoint(of: request) == .refresh { try await clock.sleep(for: 86_400) }
                return try await fake.send(request)
            }
            return c
        }())
        _ = try await client.restore()
        let refresh = Task { try await client.refresh() }
        #expect(await clock.waitForSleepers(count: 1))  // in flight, holding the lock
        await #expect(throws: SessionStoreError.self) {
            _ = try await FileSessionStore(directory: dir).lockForRefresh(waitingAtMost: 0.05)
        }

        activities.expireAll()  // the system's expiration handler
        var released = false
        do {
            // 30 s, not 5: on a loaded machine (CI's two cores running every suite at once) the
            // cancellation's hops took over 5 s once. A client that never releases still fails.
            let other = try await FileSessionStore(directory: dir).lockForRefresh(waitingAtMost: 30)
            released = true
            await other.unlock()
        } catch {
            Issue.record("the lock is still held after the background time ran out: \(error)")
        }
        if !released { await clock.advance(by: 86_400) }  // lets a refresh nobody cancelled finish
        _ = await refresh.result
        #expect(activities.ended == activities.begun)
        await client.shutdown()
    }

    @Test func visionOSGetsTheSameBackgroundActivityAsIOS() throws {
        // Read, not run: nobody compiles for visionOS here. The condition must name it.
        let source = try String(contentsOf: Self.sourceFile("Platform/BackgroundActivity.swift"), encoding: .utf8)
        #expect(source.contains("#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)"))
        let activity = try String(contentsOf: Self.sourceFile("Platform/ExpiringActivity.swift"), encoding: .utf8)
        #expect(activity.hasPrefix("#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)"))
    }

    static func sourceFile(_ path: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SessionKit").appendingPathComponent(path)
    }
}

/// Background activities a test can expire, as the system does when time runs out.
final class ExpirableActivities: BackgroundActivityProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [@Sendable () -> Void] = []
    private var counts = (begun: 0, ended: 0)
    var begun: Int { lock.withLock { counts.begun } }
    var ended: Int { lock.withLock { counts.ended } }

    func begin(_ reason: String) -> any BackgroundActivity {
        begin(reason, onExpiration: {})
    }

    func begin(_ reason: String, onExpiration: @escaping @Sendable () -> Void) -> any BackgroundActivity {
        lock.withLock {
            counts.begun += 1
            handlers.append(onExpiration)
        }
        return Handle(owner: self)
    }

    /// Calls every expiration handler given so far.
    func expireAll() {
        for handler in lock.withLock({ handlers }) { handler() }
    }

    fileprivate func end() { lock.withLock { counts.ended += 1 } }

    private struct Handle: BackgroundActivity {
        let owner: ExpirableActivities
        func end() { owner.end() }
    }
}
