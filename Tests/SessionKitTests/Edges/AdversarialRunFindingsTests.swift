import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// What the full-size adversarial chaos run found, each as the smallest world
/// that shows it (docs/RELIABILITY.md, "What the full-size adversarial run found").
@Suite(.timeLimit(.minutes(1)))
struct AdversarialRunFindingsTests {
    static func activities(_ f: Fixture) -> URLRequest {
        URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities"))
    }

    /// Life 593: a device a day behind, with no `Date` to learn it from. The
    /// extension refreshed a day ago; the app's token is rejected, the forced
    /// refresh adopts the extension's token (which the device believes
    /// valid), and the server rejects that too. It was taken for the server's
    /// word on a fresh token and the person was signed out.
    @Test func anAdoptedTokenTheServerRejectsIsRefreshedNotASignOut() async throws {
        let f = await Fixture.make()
        await f.fake.setSendsDateHeader(false)
        try await f.signIn()
        let other = SessionClient(configuration: f.client.configuration)
        _ = try await other.restore()
        _ = try await other.refresh()
        await other.shutdown()
        await f.fake.setClockSkew(86_400)
        let events = EventLog(f.client)
        let refreshesBefore = await f.fake.count(.refresh)

        let (_, response) = try await f.client.send(Self.activities(f))
        #expect(response.statusCode == 200)
        #expect(f.client.currentState.isSignedIn)
        #expect(await f.fake.count(.refresh) == refreshesBefore + 1)
        let stored = try #require(try await f.store.load())
        #expect(await f.fake.isFamilyActive(refreshToken: stored.refreshToken))
        #expect(await events.finish(f.client).expiredCount == 0)
    }

    /// Life 1184: a refresh's answer is read only after the app was suspended
    /// for hours, so its token is already expired when installed. The pause
    /// for tokens due on arrival then answered the server's rejection of that
    /// very token with the same token, and the request failed as 401.
    @Test func aTokenRejectedDuringThePauseAfterALateAnswerIsRefreshed() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let late = Once()
        let transport = ClosureTransport { request in
            let answer = try await fake.send(request)
            // The answer arrived; the app was suspended before reading it.
            if request.url?.query?.contains("grant_type=refresh_token") == true, late.take() {
                clock.set(to: clock.now.addingTimeInterval(30_000))
            }
            return answer
        }
        let f = await Fixture.make(clock: clock, fake: fake, transport: transport)
        try await f.signIn()
        _ = try await f.client.refresh()
        let events = EventLog(f.client)

        let (_, response) = try await f.client.send(Self.activities(f))
        #expect(response.statusCode == 200)
        #expect(f.client.currentState.isSignedIn)
        #expect(await f.fake.count(.refresh) == 2)
        // The late answer is refreshed before use: the request is not first sent with an expired token.
        #expect(await f.fake.count(.activities) == 1)
        #expect(await events.finish(f.client).expiredCount == 0)
    }
}

/// True the first time only.
private final class Once: @unchecked Sendable {
    // `@unchecked`: `used` is only touched under `lock`.
    private let lock = NSLock()
    private var used = false
    func take() -> Bool { lock.withLock { defer { used = true }; return !used } }
}

/// Life 155: the person sets the clock back; the running app learns the new
/// offset from the next `Date`; the app is killed before any refresh. The
/// next launch started from the record's old offset and sent a token the
/// server had expired. The record now follows the offset.
@Suite(.timeLimit(.minutes(1)))
struct ClockRecordTests {
    @Test func aMovedClockOffsetReachesTheNextLaunch() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        #expect(abs(try #require(try await f.store.load()).serverClockOffset ?? 99) < 3)
        // The device clock is set back 11 hours; the server's runs on.
        let setBack: TimeInterval = 40_000
        f.clock.set(to: f.clock.now.addingTimeInterval(-setBack))
        await f.fake.setClockSkew(setBack)
        _ = try await f.client.send(AdversarialRunFindingsTests.activities(f))
        #expect(abs(await f.client.serverClockOffset() - setBack) < 3)
        await f.client.shutdown()
        // What the next launch starts from, before its first request.
        let stored = try #require(try await f.store.load())
        #expect(abs((stored.serverClockOffset ?? 0) - setBack) < 3)
        let next = SessionClient(configuration: f.client.configuration)
        _ = try await next.restore()
        #expect(try await next.accessToken() == stored.accessToken)
        await next.shutdown()
    }
}
