import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// Proactive refresh, resume and clock skew, driven by the manual clock.
@Suite(.timeLimit(.minutes(1)))
struct TimingTests {
    @Test func refreshesProactivelyFiveMinutesBeforeExpiry() async throws {
        let f = await Fixture.make(automaticRefresh: true)
        let start = f.clock.now
        let old = try await f.signIn()
        #expect(await f.clock.waitForSleepers(count: 1))
        #expect(f.clock.nextDeadline == start.addingTimeInterval(3300))
        await f.clock.advance(by: 3299)
        #expect(await f.fake.count(.refresh) == 0)
        await f.clock.advance(by: 1)
        #expect(await eventually { await f.client.currentSession?.refreshToken != old.refreshToken })
        #expect(await f.fake.count(.refresh) == 1)
        // And the next one is scheduled from the new expiry.
        #expect(await f.clock.waitForSleepers(count: 1))
        #expect(f.clock.nextDeadline == start.addingTimeInterval(3300 + 3300))
        await f.client.shutdown()
    }

    @Test func shortLivedTokensRefreshAtHalfTheirLifetime() async throws {
        let f = await Fixture.make(automaticRefresh: true)
        await f.fake.setAccessTokenLifetime(120)
        let start = f.clock.now
        try await f.signIn()
        #expect(await f.clock.waitForSleepers(count: 1))
        #expect(f.clock.nextDeadline == start.addingTimeInterval(60))
        await f.client.shutdown()
    }

    @Test func transientFailuresRetryUntilTheServerAnswers() async throws {
        let f = await Fixture.make(automaticRefresh: true)
        let events = EventLog(f.client)
        let old = try await f.signIn()
        await f.fake.inject(.drop(.timedOut), on: .refresh, times: 3)
        await f.clock.advance(by: 3300)
        for _ in 0..<3 {
            #expect(await f.clock.waitForSleepers(count: 1))
            if let next = f.clock.nextDeadline { await f.clock.advance(to: next) }
        }
        #expect(await eventually { await f.client.currentSession?.refreshToken != old.refreshToken })
        #expect(await f.fake.count(.refresh) == 4)
        #expect(f.client.currentState.isSignedIn)
        let seen = await events.finish(f.client)
        #expect(seen.refreshFailures(willRetry: true) == 3)
        #expect(seen.expiredCount == 0)
    }

    @Test func resumeRefreshesADueSession() async throws {
        let f = await Fixture.make(automaticRefresh: true)
        let old = try await f.signIn()
        // Suspended past the refresh time: the timer never ran.
        f.clock.set(to: f.clock.now.addingTimeInterval(3400))
        await f.client.resume()
        #expect(await f.fake.count(.refresh) == 1)
        #expect(await f.client.currentSession?.refreshToken != old.refreshToken)
        await f.client.shutdown()
    }

    @Test func resumeBeforeTheRefreshTimeDoesNothing() async throws {
        let f = await Fixture.make(automaticRefresh: true)
        try await f.signIn()
        f.clock.set(to: f.clock.now.addingTimeInterval(600))
        await f.client.resume()
        #expect(await f.fake.count(.refresh) == 0)
        await f.client.shutdown()
    }

    @Test func serverClockAheadIsUsedForEveryExpiryDecision() async throws {
        let f = await Fixture.make(automaticRefresh: true)
        await f.fake.setClockSkew(600)
        let start = f.clock.now
        try await f.signIn()
        // Its `Date` reads 600 s ahead, which means 600 to 602 s: the estimate is the middle.
        #expect(await f.client.serverClockOffset() == 601)
        // expires_at is an hour after the server's now; locally that is 3599 s after start
        // (the estimate errs a second early, the safe side), and the refresh 300 s before.
        #expect(await f.clock.waitForSleepers(count: 1))
        #expect(f.clock.nextDeadline == start.addingTimeInterval(3299))
        await f.client.shutdown()
    }

    @Test func serverClockBehindDoesNotMakeFreshTokensLookExpired() async throws {
        let f = await Fixture.make()
        await f.fake.setClockSkew(-7200)
        let session = try await f.signIn()
        // Without the offset, expires_at (server time) would already be past locally.
        #expect(session.expiresAt < f.clock.now)
        #expect(try await f.client.accessToken() == session.accessToken)
        #expect(await f.fake.count(.refresh) == 0)
    }
}
