import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// A server that issues tokens with no useful lifetime, and an app that asks
/// for a token in a loop during an outage: neither hammers `/token`.
@Suite(.timeLimit(.minutes(1)))
struct RefreshLoopTests {
    @Test(arguments: [0, -5])
    func aTokenWithNoLifetimeDoesNotCauseARefreshLoop(lifetime: Int) async throws {
        let f = await Fixture.make(automaticRefresh: true)
        await f.fake.setAccessTokenLifetime(TimeInterval(lifetime))
        let first = try await f.signIn()
        // The tokens are kept (the refresh token was rotated on the server) and usable.
        #expect(try await f.client.accessToken() == first.accessToken || f.client.currentState.isSignedIn)
        for _ in 0..<100 { _ = try await f.client.accessToken() }
        await f.clock.advance(by: 60)
        // Backoff from 1 s doubling (jitter 0.5): a handful of refreshes in a minute, not thousands.
        let count = await f.fake.count(.refresh)
        #expect(count >= 1)
        #expect(count <= 8)
        let stored = try #require(try await f.store.load())
        #expect(await f.fake.isFamilyActive(refreshToken: stored.refreshToken))
        await f.client.shutdown()
    }

    @Test func aNegativeLifetimeIsStillPersisted() async throws {
        let f = await Fixture.make()
        let old = try await f.signIn()
        await f.fake.setAccessTokenLifetime(-5)
        let renewed = try await f.client.refresh()
        #expect(renewed.refreshToken != old.refreshToken)
        #expect(try await f.storedRefreshToken() == renewed.refreshToken)
        #expect(await f.fake.isFamilyActive(refreshToken: renewed.refreshToken))
    }

    @Test func tokenCallsDuringAnOutageDoNotHitTheServerEachTime() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.drop(.notConnectedToInternet), on: .refresh, times: 1000)
        for _ in 0..<50 {
            await #expect(throws: SessionError.network) { try await f.client.accessToken() }
        }
        #expect(await f.fake.count(.refresh) == 1)
        // After the backoff, one more try.
        f.clock.set(to: f.clock.now.addingTimeInterval(1))
        await #expect(throws: SessionError.network) { try await f.client.accessToken() }
        #expect(await f.fake.count(.refresh) == 2)
    }

    @Test func retryAfterHoldsOnDemandCallsBack() async throws {
        let f = await Fixture.make()
        let old = try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.gatewayError(status: 429, code: .rateLimited, headers: ["Retry-After": "30"]), on: .refresh)
        await #expect(throws: SessionError.rateLimited) { try await f.client.accessToken() }
        f.clock.set(to: f.clock.now.addingTimeInterval(20))
        do {
            _ = try await f.client.accessToken()
            Issue.record("expected the backoff to answer")
        } catch {
            #expect(error == .rateLimited)
            #expect((error.retryAfter ?? 0) > 9)
        }
        #expect(await f.fake.count(.refresh) == 1)
        f.clock.set(to: f.clock.now.addingTimeInterval(11))
        #expect(try await f.client.accessToken() != old.accessToken)
        #expect(await f.fake.count(.refresh) == 2)
    }
}
