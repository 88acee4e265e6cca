import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The server clock is learned from the auth server alone, robustly; the
/// token goes only where the app allows.
@Suite(.timeLimit(.minutes(1)))
struct ClockEdgeTests {
    static let api = URL(string: "https://api.example.com/v1/things")!

    /// A client whose transport answers the API host itself (a day ahead), the fake the rest.
    static func withForeignAPI() async throws -> (Fixture, SessionClient, RequestLog) {
        let f = await Fixture.make()
        try await f.signIn()
        let log = RequestLog()
        let fake = f.fake
        let clock = f.clock
        let transport = ClosureTransport { request in
            log.append(request)
            guard request.url?.host == api.host else { return try await fake.send(request) }
            let date = ServerClockOffset.formatHTTPDate(clock.now.addingTimeInterval(86_400))
            return (Data("[]".utf8), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: ["Date": date])!)
        }
        var configuration = f.client.configuration
        configuration.transport = transport
        configuration.authorizedOrigins = [fake.baseURL, api]
        let client = SessionClient(configuration: configuration)
        _ = try await client.restore()
        return (f, client, log)
    }

    @Test func anotherHostsDateDoesNotMoveTheServerClock() async throws {
        let (_, client, _) = try await Self.withForeignAPI()
        _ = try await client.send(URLRequest(url: Self.api))
        #expect(abs(await client.serverClockOffset()) < 2)
    }

    @Test func theTokenGoesOnlyToAllowedOrigins() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        let before = await f.fake.count(.unknown)
        do {
            _ = try await f.client.send(URLRequest(url: URL(string: "https://evil.example/steal")!))
            Issue.record("expected a refusal")
        } catch {
            #expect(error == .originNotAllowed)
        }
        #expect(await f.fake.count(.unknown) == before)
        // The backend's own origin is allowed by default.
        _ = try await f.client.send(URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities")))
    }

    @Test func ageIsAddedBack() {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        var offset = ServerClockOffset()
        // A cached answer: its Date is 100 s old, and Age says so.
        let changed = offset.observe(
            dateHeader: ServerClockOffset.formatHTTPDate(now.addingTimeInterval(-100)), age: "100", receivedAt: now)
        #expect(!changed)
        #expect(abs(offset.seconds) < 1.5)
    }

    @Test func theTightestRoundTripWins() {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        var offset = ServerClockOffset()
        // The server, `skew` ahead, stamps its Date halfway through the round trip.
        func sample(_ skew: TimeInterval, roundTrip: TimeInterval) {
            offset.observe(
                dateHeader: ServerClockOffset.formatHTTPDate(now.addingTimeInterval(skew - roundTrip / 2)),
                sentAt: now.addingTimeInterval(-roundTrip), receivedAt: now)
        }
        // The estimate is the middle of the two seconds a `Date` allows: within 1 s of the skew.
        sample(10, roundTrip: 2)
        #expect(abs(offset.seconds - 10) <= 1)
        sample(8, roundTrip: 0.1)
        #expect(abs(offset.seconds - 8) <= 1)
        // A later sample, off by what its slower round trip can explain, does not move it.
        sample(10, roundTrip: 1.5)
        #expect(abs(offset.seconds - 8) <= 1)
    }

    /// Found by CI under load: a server on the same clock, answering slowly,
    /// looked 2 s behind (measured from the arrival alone), so a client kept
    /// using a token for 2 s after it expired and never refreshed it in time.
    @Test func aSlowAnswerFromAServerOnTheSameClockIsNotASkew() {
        let sent = Date(timeIntervalSince1970: 1_767_225_600)
        var offset = ServerClockOffset()
        // Sent at :00, stamped at :01.5 (reads "…:01"), received at :03.
        let changed = offset.observe(
            dateHeader: ServerClockOffset.formatHTTPDate(sent.addingTimeInterval(1.5)), sentAt: sent,
            receivedAt: sent.addingTimeInterval(3))
        #expect(!changed)
        #expect(offset.seconds == 0)
    }

    /// Found by CI under load: Hummingbird renews its `Date` header once a
    /// second, at the phase the server started with, so a server on our own
    /// clock sends a `Date` up to 2 s behind. Read as the server's time, that
    /// looked like a skew of -1.9 s; eight processes then shared a token for
    /// seconds after it expired and none refreshed it.
    @Test func aCachedDateHeaderFromAServerOnTheSameClockIsNotASkew() {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        for phase in stride(from: 0.0, to: 1, by: 0.05) {
            for elapsed in stride(from: 1.0, to: 4, by: 0.05) {
                let now = start.addingTimeInterval(elapsed)
                // The header renewed last at `phase` past a second, at or before now; it reads that second.
                let renewed = (now.timeIntervalSince1970 - phase).rounded(.down) + phase
                let header = ServerClockOffset.formatHTTPDate(Date(timeIntervalSince1970: renewed))
                var offset = ServerClockOffset()
                let changed = offset.observe(dateHeader: header, sentAt: now.addingTimeInterval(-0.01), receivedAt: now)
                #expect(!changed, "phase \(phase), \(elapsed) s: \(offset.seconds)")
            }
        }
    }

    /// A `Date` a few seconds different used to restart the backoff at its first step.
    @Test func aNewClockSampleDoesNotResetTheBackoff() async throws {
        let f = await Fixture.make(automaticRefresh: true)
        try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.drop(.notConnectedToInternet), on: .refresh, times: 4)
        for _ in 0..<3 { _ = try? await f.client.refresh() }
        // An answer from the server whose clock now reads 5 s ahead (a refused
        // password check: the backoff keeps token calls off the wire).
        await f.fake.setClockSkew(5)
        _ = try? await f.client.signIn(email: Fixture.email, password: "not-the-password")
        #expect(await f.client.serverClockOffset() >= 4)
        _ = try? await f.client.refresh()
        // Fourth failure: ceiling 8 s, jitter 0.5 → 4 s. A reset would give 0.5 s.
        let deadline = try #require(f.clock.nextDeadline)
        #expect(deadline.timeIntervalSince(f.clock.now) >= 3.5)
        await f.client.shutdown()
    }

    /// A device two days behind: a new process (a relaunch, an extension)
    /// starts from the offset the store remembers, so it never sends a token
    /// the server already considers expired (the adversarial chaos run found it).
    @Test func aRelaunchStartsFromTheRememberedServerClock() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        await fake.setClockSkew(2 * 86_400)
        let shared = InMemorySessionStore()
        let first = await Fixture.make(store: shared, clock: clock, fake: fake)
        try await first.signIn()
        #expect(await first.client.serverClockOffset() > 86_400)
        #expect(try #require(try await shared.load()).serverClockOffset.map { $0 > 86_400 } == true)
        // An hour and a bit later on the server: the token has expired there.
        clock.set(to: clock.now.addingTimeInterval(SessionDefaults.accessTokenLifetime + 30))
        let relaunched = await Fixture.make(store: shared, clock: clock, fake: fake, launchValidation: .skip)
        _ = try await relaunched.client.restore()
        #expect(await relaunched.client.serverClockOffset() > 86_400)
        let meBefore = await fake.count(.user)
        _ = try await relaunched.client.me()
        // One call, with a token refreshed first: no 401 round trip with the expired one.
        #expect(await fake.count(.user) == meBefore + 1)
        #expect(await fake.count(.refresh) == 1)
    }

    @Test func aClockChangeReplacesTheEstimateAtOnce() {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        var offset = ServerClockOffset()
        // A tight sample, then the device clock is set 6 hours off: the next
        // (looser) sample contradicts it beyond any latency and wins.
        offset.observe(dateHeader: ServerClockOffset.formatHTTPDate(now), sentAt: now.addingTimeInterval(-0.01), receivedAt: now)
        offset.observe(
            dateHeader: ServerClockOffset.formatHTTPDate(now.addingTimeInterval(6 * 3600)), sentAt: now.addingTimeInterval(-0.8),
            receivedAt: now)
        #expect(abs(offset.seconds - 6 * 3600) < 2)
    }

    @Test func httpDatesRoundTripArithmetically() throws {
        for seconds in stride(from: 0.0, to: 4_102_444_800, by: 7_654_321) {
            let date = Date(timeIntervalSince1970: seconds)
            let text = ServerClockOffset.formatHTTPDate(date)
            #expect(ServerClockOffset.parseHTTPDate(text) == date)
        }
        #expect(ServerClockOffset.parseHTTPDate("Thu, 29 Feb 2024 12:00:00 GMT") != nil)
        #expect(ServerClockOffset.parseHTTPDate("Thu, 29 Feb 2023 12:00:00 GMT") == nil)
        #expect(ServerClockOffset.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 UTC") == nil)
    }
}

/// Requests a transport saw.
final class RequestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [URLRequest] = []
    func append(_ request: URLRequest) { lock.withLock { requests.append(request) } }
    var all: [URLRequest] { lock.withLock { requests } }
}
