import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// `restore()`: never `signedIn` on the mere existence of tokens.
@Suite(.timeLimit(.minutes(1)))
struct LaunchTests {
    /// A store holding a session the fake issued, as a previous launch left it.
    func seededStore(_ fake: FakeAuthBackend, expiresAt: Date?? = .none) async throws -> (InMemorySessionStore, TokenResponse) {
        if await !fake.hasUser(email: Fixture.email) { await fake.createUser(email: Fixture.email, password: Fixture.password) }
        let response = try #require(await fake.issueSession(email: Fixture.email))
        var record = StoredSession(Session(response: response, serverNow: await fake.serverNow))
        if case .some(let override) = expiresAt { record.expiresAt = override }
        return (InMemorySessionStore(record), response)
    }

    @Test func noStoredSessionIsSignedOutWithAnInfoLine() async throws {
        let f = await Fixture.make()
        #expect(try await f.client.restore() == .signedOut)
        let line = try #require(f.logs.entries.first { $0.message.contains("No stored session") })
        #expect(line.level == .info)
        #expect(f.logs.entries.allSatisfy { $0.level < .warning })
    }

    @Test func backgroundModeReportsAtOnceThenValidates() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake)
        let f = await Fixture.make(store: store, clock: clock, fake: fake, launchValidation: .background)
        let state = try await f.client.restore()
        #expect(state.session?.accessToken == response.accessToken)
        #expect(await eventually { await fake.count(.user) == 1 })
        #expect(f.client.currentState.isSignedIn)
    }

    @Test func blockingModeValidatesBeforeReturning() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake)
        let f = await Fixture.make(store: store, clock: clock, fake: fake, launchValidation: .blocking)
        let state = try await f.client.restore()
        #expect(await fake.count(.user) == 1)
        #expect(state.session?.accessToken == response.accessToken)
    }

    @Test func blockingModeReportsARevokedSessionAsExpired() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake)
        await fake.revokeFamily(ofRefreshToken: response.refreshToken)
        let f = await Fixture.make(store: store, clock: clock, fake: fake, launchValidation: .blocking)
        let state = try await f.client.restore()
        #expect(state == .expired(reason: SessionError.sessionExpiredMessage))
        #expect(await fake.count(.refresh) == 1)
        #expect(try await store.load()?.holdsSession != true)
    }

    @Test func backgroundModeShowsAnExpiredSessionAtOnceAndRefreshesBehindIt() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake)
        clock.set(to: clock.now.addingTimeInterval(4000))
        let gate = FakeGate()
        await fake.inject(.hold(gate), on: .refresh)
        let f = await Fixture.make(store: store, clock: clock, fake: fake, launchValidation: .background)
        // Returns while the refresh is held at the server: no spinner through a round trip.
        let state = try await f.client.restore()
        #expect(state.session?.refreshToken == response.refreshToken)
        #expect(state.isSignedIn)
        await gate.waitForArrivals(1)
        // A token asked for meanwhile is never the expired one: it waits for the refresh.
        let token = Task { try await f.client.accessToken() }
        await gate.open()
        #expect(try await token.value != response.accessToken)
        #expect(await fake.count(.refresh) == 1)
    }

    @Test func backgroundModeEndsAnExpiredSessionTheServerRevoked() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake)
        await fake.revokeFamily(ofRefreshToken: response.refreshToken)
        clock.set(to: clock.now.addingTimeInterval(4000))
        let f = await Fixture.make(store: store, clock: clock, fake: fake, launchValidation: .background)
        _ = try await f.client.restore()
        #expect(await waitForState(f.client) { if case .expired = $0 { true } else { false } } != nil)
        #expect(try await store.load()?.holdsSession != true)
    }

    @Test func blockingModeRefreshesAnExpiredTokenBeforeSignedIn() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake)
        clock.set(to: clock.now.addingTimeInterval(4000))
        let f = await Fixture.make(store: store, clock: clock, fake: fake, launchValidation: .blocking)
        let states = f.client.states
        let state = try await f.client.restore()
        #expect(await fake.count(.refresh) == 1)
        let session = try #require(state.session)
        #expect(session.accessToken != response.accessToken)
        // The stale token was never reported as signed in.
        await f.client.shutdown()
        var seen: [SessionState] = []
        for await s in states { seen.append(s) }
        #expect(!seen.contains { $0.session?.accessToken == response.accessToken })
    }

    @Test func backgroundModeExpiredTokenWhileOfflineGoesOfflineNeverSignedOut() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake)
        clock.set(to: clock.now.addingTimeInterval(4000))
        await fake.inject(.drop(.notConnectedToInternet), on: .refresh)
        let f = await Fixture.make(store: store, clock: clock, fake: fake, launchValidation: .background)
        #expect(try await f.client.restore().isSignedIn)
        #expect(await waitForState(f.client) { if case .offline = $0 { true } else { false } } != nil)
        #expect(try await store.load()?.refreshToken == response.refreshToken)
    }

    @Test func expiredTokenWhileOfflineIsOfflineNeverSignedOut() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake)
        clock.set(to: clock.now.addingTimeInterval(4000))
        await fake.inject(.drop(.notConnectedToInternet), on: .refresh)
        let f = await Fixture.make(store: store, clock: clock, fake: fake, launchValidation: .blocking)
        let state = try await f.client.restore()
        guard case .offline(let session) = state else {
            Issue.record("expected offline, got \(state)")
            return
        }
        #expect(session.refreshToken == response.refreshToken)
        #expect(try await store.load()?.refreshToken == response.refreshToken)
    }

    @Test func jwtExpFallbackDecidesWhenTheRecordHasNoExpiry() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake, expiresAt: .some(nil))
        let f = await Fixture.make(store: store, clock: clock, fake: fake, launchValidation: .skip)
        let state = try await f.client.restore()
        #expect(state.session?.accessToken == response.accessToken)
        #expect(state.session?.expiresAt == Date(timeIntervalSince1970: TimeInterval(response.expiresAt ?? 0)))
        #expect(await fake.count(.refresh) == 0)
    }

    @Test func unknownExpiryIsTreatedAsExpired() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (seeded, response) = try await seededStore(fake, expiresAt: .some(nil))
        var record = try #require(try await seeded.load())
        record.accessToken = "opaque-token-without-claims"
        let f = await Fixture.make(store: InMemorySessionStore(record), clock: clock, fake: fake, launchValidation: .skip)
        let state = try await f.client.restore()
        #expect(await fake.count(.refresh) == 1)
        #expect(state.session?.refreshToken != response.refreshToken)
    }

    @Test func corruptStoreIsATypedErrorNotASilentSignOut() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sessionkit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: store.fileURL)
        let f = await Fixture.make(store: store)
        await #expect(throws: SessionError.storeCorrupted) { try await f.client.restore() }
        #expect(f.logs.entries.contains { $0.level == .error && $0.message.contains("corrupt") })
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.contains { $0.hasPrefix("session.json.corrupt-") })
    }

    @Test func unreadableStoreKeepsRestoring() async throws {
        let flaky = FlakySessionStore(wrapping: InMemorySessionStore())
        await flaky.failNextLoads(1)
        let f = await Fixture.make(store: flaky)
        await #expect(throws: SessionError.storeUnavailable) { try await f.client.restore() }
        #expect(f.client.currentState == .restoring)
    }
}
