import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// Every row of the refresh-outcome table (docs/PROTOCOL.md, "Refresh outcomes"), through the client.
@Suite(.timeLimit(.minutes(1)))
struct RefreshOutcomeTests {
    @Test func successPersistsThenPublishes() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        let old = try await f.signIn()
        f.expireAccessToken()
        let token = try await f.client.accessToken()
        #expect(token != old.accessToken)
        #expect(try await f.storedRefreshToken() == f.client.currentSession?.refreshToken)
        #expect(try await f.storedRefreshToken() != old.refreshToken)
        #expect(await f.fake.count(.refresh) == 1)
        let seen = await events.finish(f.client)
        #expect(seen.refreshedCount == 1)
    }

    @Test(arguments: [URLError.Code.notConnectedToInternet, .timedOut, .networkConnectionLost])
    func networkFailureKeepsTheSessionOffline(code: URLError.Code) async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        let old = try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.drop(code), on: .refresh)
        await #expect(throws: SessionError.network) { try await f.client.accessToken() }
        #expect(f.client.currentState == .offline(old))
        #expect(try await f.storedRefreshToken() == old.refreshToken)
        // Once the backoff has passed, the next attempt goes through and the client is online again.
        f.clock.set(to: f.clock.now.addingTimeInterval(1))
        let token = try await f.client.accessToken()
        #expect(token != old.accessToken)
        #expect(f.client.currentState.session?.accessToken == token)
        if case .signedIn = f.client.currentState {} else { Issue.record("expected signedIn") }
        let seen = await events.finish(f.client)
        #expect(seen.contains(.offline))
        #expect(seen.contains(.online))
        #expect(seen.expiredCount == 0)
    }

    static let transientFaults: [FakeFault] = [
        .gatewayError(status: 500, code: .internal),
        .status(503, body: Data("<html>bad gateway</html>".utf8)),
        .gatewayError(status: 429, code: .rateLimited, headers: ["Retry-After": "30"]),
        .status(408),
        .body(Data("{\"access_token\": 12}".utf8)),
        .body(Data("not json at all".utf8)),
        .body(Data(#"{"access_token":"a","token_type":"bearer","expires_in":3600,"refresh_token":"","user":{"id":"u","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}}"#.utf8)),
        .status(404, body: Data("{\"message\":\"no route\"}".utf8)),
    ]

    @Test(arguments: transientFaults)
    func transientAnswersKeepTheSession(fault: FakeFault) async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        let old = try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(fault, on: .refresh)
        await #expect(throws: SessionError.self) { try await f.client.accessToken() }
        #expect(await f.client.currentSession == old)
        #expect(f.client.currentState.isSignedIn)
        #expect(try await f.storedRefreshToken() == old.refreshToken)
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 0)
        #expect(seen.refreshFailures(willRetry: false) == 1)  // automatic refresh is off in this fixture
    }

    @Test func retryAfterIsHonouredByTheRetryTimer() async throws {
        let f = await Fixture.make(automaticRefresh: true)
        let old = try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.gatewayError(status: 429, code: .rateLimited, headers: ["Retry-After": "30"]), on: .refresh)
        await #expect(throws: SessionError.rateLimited) { try await f.client.accessToken() }
        #expect(await f.clock.waitForSleepers(count: 1))
        #expect(f.clock.nextDeadline == f.clock.now.addingTimeInterval(30))
        await f.clock.advance(by: 29)
        #expect(await f.fake.count(.refresh) == 1)
        await f.clock.advance(by: 1)
        #expect(await eventually { await f.client.currentSession?.refreshToken != old.refreshToken })
        #expect(await f.fake.count(.refresh) == 2)
        await f.client.shutdown()
    }

    static let terminalFaults: [FakeFault] = [
        .gatewayError(status: 401, code: .sessionExpired),
        .goTrueError(status: 400, code: .refreshTokenNotFound),
        .goTrueError(status: 404, code: .sessionNotFound),
        .goTrueError(status: 403, code: .sessionExpired),
        .goTrueError(status: 404, code: .userNotFound),
    ]

    @Test(arguments: terminalFaults)
    func terminalAnswersEndTheSessionOnce(fault: FakeFault) async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(fault, on: .refresh)
        await #expect(throws: SessionError.sessionExpired) { try await f.client.accessToken() }
        await #expect(throws: SessionError.notSignedIn) { try await f.client.accessToken() }
        #expect(f.client.currentState == .expired(reason: "Your session has expired. Please sign in again."))
        #expect(try await f.store.load()?.holdsSession != true)
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 1)
        #expect(seen.contains(.sessionExpired(message: "Your session has expired. Please sign in again.")))
        #expect(await f.fake.count(.refresh) == 1)
    }

    @Test func revokedFamilyEndsTheSession() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        await f.fake.revokeFamily(ofRefreshToken: session.refreshToken)
        await #expect(throws: SessionError.sessionExpired) { try await f.client.refresh() }
        #expect(f.client.currentState == .expired(reason: SessionError.sessionExpiredMessage))
    }

    @Test func alreadyUsedAdoptsTheNewerStoredSession() async throws {
        let store = InMemorySessionStore()
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        // Written just before our refresh, so still valid once the test's clock has jumped an hour.
        let newer = StoredSession(
            accessToken: TestJWT.make(issuedAt: clock.now.addingTimeInterval(3600), expiresAt: clock.now.addingTimeInterval(7200)),
            refreshToken: "written-by-another-process", expiresAt: clock.now.addingTimeInterval(7200), lifetime: 3600)
        // Another process writes the store while our refresh is on the wire, and the server calls our token used.
        let transport = ClosureTransport { request in
            if FakeAuthBackend.endpoint(of: request) == .refresh {
                try await store.save(newer)
                let body = Data(#"{"code":400,"error_code":"refresh_token_already_used","msg":"Already Used"}"#.utf8)
                return (body, HTTPURLResponse(url: request.url!, statusCode: 400, httpVersion: nil, headerFields: nil)!)
            }
            return try await fake.send(request)
        }
        let f = await Fixture.make(store: store, clock: clock, fake: fake, transport: transport)
        let events = EventLog(f.client)
        try await f.signIn()
        f.expireAccessToken()
        let token = try await f.client.accessToken()
        #expect(token == newer.accessToken)
        #expect(await f.client.currentSession?.refreshToken == "written-by-another-process")
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 0)
        // Adopted with the person we knew (the record was written without a user).
        let adopted = seen.compactMap { if case .adoptedStoredSession(let s) = $0 { s } else { nil } }
        #expect(adopted.map(\.refreshToken) == [newer.refreshToken])
        #expect(adopted.first?.user != nil)
    }

    @Test func alreadyUsedWithoutANewerSessionEnds() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.goTrueError(status: 400, code: .refreshTokenAlreadyUsed), on: .refresh)
        await #expect(throws: SessionError.sessionExpired) { try await f.client.accessToken() }
        #expect(try await f.store.load()?.holdsSession != true)
    }

    @Test func lostAnswerAfterCommitIsRecoveredWithinTheGrace() async throws {
        let f = await Fixture.make()
        let old = try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.commitThenDrop(), on: .refresh)
        await #expect(throws: SessionError.network) { try await f.client.accessToken() }
        // The server rotated; presenting the old token again within the grace (after the
        // backoff, 0.5 s here) returns the successor.
        f.clock.set(to: f.clock.now.addingTimeInterval(1))
        let token = try await f.client.accessToken()
        #expect(token != old.accessToken)
        #expect(await f.fake.isFamilyActive(refreshToken: old.refreshToken))
    }

    @Test func writeFailureAfterRefreshKeepsTheNewTokensAndRetries() async throws {
        let inner = InMemorySessionStore()
        let flaky = FlakySessionStore(wrapping: inner)
        let f = await Fixture.make(store: flaky)
        let events = EventLog(f.client)
        let old = try await f.signIn()
        f.expireAccessToken()
        await flaky.failNextSaves(2)
        let token = try await f.client.accessToken()
        let refreshed = try #require(await f.client.currentSession)
        #expect(token == refreshed.accessToken)
        #expect(refreshed.refreshToken != old.refreshToken)
        // Still the old record on disk: the new refresh token lives in memory until the retry lands.
        #expect(try await inner.load()?.refreshToken == old.refreshToken)
        // A second accessToken() does not refresh again.
        #expect(try await f.client.accessToken() == token)
        #expect(await f.clock.waitForSleepers(count: 1))
        await f.clock.advance(by: 1)  // the first retry fails (the second injected failure)
        #expect(await eventually { await flaky.saveAttempts >= 3 })
        #expect(await f.clock.waitForSleepers(count: 1))
        await f.clock.advance(by: 1)
        #expect(await eventually { (try? await inner.load()?.refreshToken) == refreshed.refreshToken })
        #expect(await f.fake.count(.refresh) == 1)
        let seen = await events.finish(f.client)
        #expect(seen.persistenceFailures == 1)
        #expect(seen.refreshedCount == 1)
    }

    @Test func signOutDuringAnInFlightRefreshDropsItsResult() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        try await f.signIn()
        f.expireAccessToken()
        let gate = FakeGate()
        await f.fake.inject(.hold(gate), on: .refresh)
        let pending = Task { try await f.client.accessToken() }
        await gate.waitForArrivals(1)
        let signOut = Task { try await f.client.signOut() }
        _ = await waitForState(f.client) { $0 == .signedOut }
        await gate.open()
        try await signOut.value
        await #expect(throws: SessionError.self) { try await pending.value }
        #expect(await f.client.currentSession == nil)
        #expect(try await f.store.load()?.holdsSession != true)
        #expect(f.client.currentState == .signedOut)
        let seen = await events.finish(f.client)
        #expect(seen.refreshedCount == 0)
        #expect(seen.expiredCount == 0)
    }
}

extension FakeFault: CustomTestStringConvertible {
    public var testDescription: String {
        switch self {
        case .drop(let code): "drop \(code.rawValue)"
        case .status(let status, _, _): "status \(status)"
        case .goTrueError(let status, let code, _): "GoTrue \(status) \(code)"
        case .gatewayError(let status, let code, _, _): "gateway \(status) \(code)"
        case .hold: "hold"
        case .holdAnswer: "hold the answer"
        case .commitThenDrop: "commit then drop"
        case .body(_, let status): "body \(status)"
        }
    }
}
