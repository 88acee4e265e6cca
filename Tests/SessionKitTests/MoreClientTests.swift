import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

@Suite(.timeLimit(.minutes(1)))
struct MoreClientTests {
    func activities(_ f: Fixture) -> URLRequest {
        URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities"))
    }

    @Test func concurrentRejectionsPublishSessionExpiredOnce() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        try await f.signIn()
        await f.fake.inject(.gatewayError(status: 401, code: .sessionExpired), on: .activities, times: 2)
        await f.fake.inject(.goTrueError(status: 400, code: .refreshTokenNotFound), on: .refresh)
        let client = f.client
        let request = activities(f)
        async let first: Void = { _ = try? await client.send(request) }()
        async let second: Void = { _ = try? await client.send(request) }()
        _ = await (first, second)
        #expect(f.client.currentState == .expired(reason: SessionError.sessionExpiredMessage))
        #expect(await f.fake.count(.refresh) == 1)
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 1)
    }

    /// `AUTH_REQUIRED` means "no or malformed credentials": on the refresh
    /// endpoint (which takes none) it is not the auth server's verdict on the
    /// session, so it is refused-in-between, never an end.
    @Test func authRequiredOnRefreshKeepsTheSession() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        let session = try await f.signIn()
        await f.fake.inject(.gatewayError(status: 401, code: .authRequired), on: .refresh)
        await #expect(throws: SessionError.refreshRefused) { try await f.client.refresh() }
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 0)
        #expect(!seen.contains(.signedOut))
    }

    @Test func resumeWhileOfflineRetriesAtOnce() async throws {
        let f = await Fixture.make(automaticRefresh: true)
        let old = try await f.signIn()
        await f.fake.inject(.drop(.notConnectedToInternet), on: .refresh)
        #expect(await f.clock.waitForSleepers(count: 1))
        await f.clock.advance(by: 3300)
        #expect(await eventually { f.client.currentState == .offline(old) })
        await f.client.resume()
        #expect(await f.fake.count(.refresh) == 2)
        #expect(await f.client.currentSession?.refreshToken != old.refreshToken)
        if case .signedIn = f.client.currentState {} else { Issue.record("expected signedIn after resume") }
        await f.client.shutdown()
    }

    @Test func fileStoreWriteFailureIsATypedError() async throws {
        // A regular file where the directory should be: nothing can be written beneath it.
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("sessionkit-\(UUID().uuidString)")
        try Data("x".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let store = FileSessionStore(directory: blocker.appendingPathComponent("sessions"))
        let record = StoredSession(accessToken: "a", refreshToken: "r", expiresAt: nil)
        await #expect(throws: SessionStoreError.writeFailed("")) { try await store.save(record) }
        #expect(try Data(contentsOf: blocker) == Data("x".utf8))
    }

    @Test func middlewaresRunInOrderAroundTheTransport() async throws {
        struct Tag: TransportMiddleware {
            let name: String
            func intercept(
                _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
            ) async throws -> (Data, HTTPURLResponse) {
                var request = request
                let seen = request.value(forHTTPHeaderField: "X-Order") ?? ""
                request.setValue(seen + name, forHTTPHeaderField: "X-Order")
                return try await next(request)
            }
        }
        let recorder = ScriptedTransport([.answer(status: 204)])
        let transport = MiddlewareTransport(base: recorder, middlewares: [Tag(name: "a"), Tag(name: "b")])
        _ = try await transport.send(URLRequest(url: URL(string: "https://example.com")!))
        #expect(await recorder.requests.first?.value(forHTTPHeaderField: "X-Order") == "ab")
    }

    @Test func statesStreamStartsWithTheCurrentStateForEachSubscriber() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        var first = f.client.states.makeAsyncIterator()
        var second = f.client.states.makeAsyncIterator()
        #expect(await first.next() == .signedIn(session))
        #expect(await second.next() == .signedIn(session))
        try await f.client.signOut()
        #expect(await first.next() == .signedOut)
        #expect(await second.next() == .signedOut)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct SignOutWithoutRestoreTests {
    @Test func signOutWithoutRestoreTellsTheServer() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let store = InMemorySessionStore()
        let first = await Fixture.make(store: store, clock: clock, fake: fake)
        let session = try await first.signIn()
        // A second short-lived process on the same store signs out without restoring.
        let second = await Fixture.make(store: store, clock: clock, fake: fake)
        try await second.client.signOut()
        #expect(await fake.count(.logout) == 1)
        #expect(await !fake.isFamilyActive(refreshToken: session.refreshToken))
        #expect(try await store.load()?.holdsSession != true)
        #expect(second.client.currentState == .signedOut)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct CorruptionDuringSessionTests {
    @Test func aStoreCorruptedWhileSignedInIsRewrittenByTheNextRefresh() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sessionkit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        let f = await Fixture.make(store: store)
        try await f.signIn()
        try Data("{ half a record".utf8).write(to: store.fileURL)
        f.expireAccessToken()
        let token = try await f.client.accessToken()
        let reloaded = try #require(try await store.load())
        #expect(reloaded.accessToken == token)
        #expect(f.logs.entries.contains { $0.level == .error && $0.message.contains("re-read") })
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.contains { $0.hasPrefix("session.json.corrupt-") })
    }
}
