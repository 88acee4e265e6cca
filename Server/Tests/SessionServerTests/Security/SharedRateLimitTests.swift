import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import SQLKit
import Testing
@testable import SessionServer

/// Issue 15 §6: limits hold across replicas on PostgreSQL; the in-process
/// limiter's memory is fixed with O(1) work per request; a per-email sign-in
/// limit never keeps a person from refreshing.
struct SharedRateLimitTests {
    @Test(.enabled(if: TestDatabase.postgresURL != nil, "SESSIONKIT_TEST_POSTGRES_URL is not set"))
    func limitsHoldAcrossReplicasOnPostgres() async throws {
        let location = TestDatabase.postgresLocation(schema: TestDatabase.freshSchemaName())
        let clock = ManualClock()
        let a = try await TestServer.make(location: location, clock: clock) {
            $0.passwordSignInsPerMinutePerEmail = 3
            $0.gatewayRequestsPerMinutePerUser = 4
        }
        let b = try await TestServer.make(location: location, clock: clock) {
            $0.passwordSignInsPerMinutePerEmail = 3
            $0.gatewayRequestsPerMinutePerUser = 4
        }
        try await a.run { clientA in
            try await b.run { clientB in
                let session = try await clientA.signUp()
                var statuses: [HTTPResponse.Status] = []
                for client in [clientA, clientB, clientA, clientB] {
                    statuses.append(try await client.signIn("ada@example.com", password: "wrong-password").status)
                }
                #expect(statuses == [.badRequest, .badRequest, .badRequest, .tooManyRequests])

                var gateway: [HTTPResponse.Status] = []
                for client in [clientA, clientB, clientA, clientB, clientA] {
                    gateway.append(try await client.send(.get, "/v1/activities", bearer: session.accessToken).status)
                }
                #expect(gateway == [.ok, .ok, .ok, .ok, .tooManyRequests])

                // The table holds digests, never the email or the user id.
                let keys = try await a.server.store.withTransaction { db in
                    try await db.raw("SELECT key FROM rate_limits").all().map { try $0.decode(column: "key", as: String.self) }
                }
                #expect(!keys.isEmpty)
                // Every key is a SHA-256 hex digest. (Not `!contains("ada")`: "ada" is hex, and
                // with more limiters per sign-in a digest held it by chance and failed a correct run.)
                #expect(keys.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) && !$0.contains("@") })
                #expect(keys.allSatisfy { !$0.contains(session.user!.id) })

                // The window passes for both replicas, and pruning removes windows long over.
                await clock.advance(by: 60)
                #expect(try await clientB.signIn("ada@example.com", password: "correct-horse").status == .ok)
                await clock.advance(by: 3700)
                _ = try await a.server.store.pruneExpired(now: clock.now)
                let left = try await a.server.store.withTransaction { db in try await db.raw("SELECT key FROM rate_limits").all().count }
                #expect(left == 0)
            }
        }
    }

    @Test(arguments: TestDatabase.all)
    func aPersonLockedOutOfPasswordSignInCanStillRefresh(database: TestDatabase) async throws {
        let test = try await TestServer.make(database) { $0.passwordSignInsPerMinutePerEmail = 3 }
        try await test.run { client in
            let session = try await client.signUp()
            for _ in 0..<3 { _ = try await client.signIn("ada@example.com", password: "guessing-away") }
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .tooManyRequests)
            let refreshed = try await client.refresh(session.refreshToken)
            #expect(refreshed.status == .ok)
        }
    }

    @Test func theInProcessLimiterCountsExactlyForOneKey() async {
        let clock = ManualClock()
        let limiter = RateLimiter(limit: 3, clock: clock)
        for _ in 0..<3 { #expect(limiter.attempt("203.0.113.7") == .allowed) }
        #expect(limiter.attempt("203.0.113.7") == .limited(retryAfter: 60))
        #expect(limiter.attempt("198.51.100.1") == .allowed)
        await clock.advance(by: 45)
        #expect(limiter.attempt("203.0.113.7") == .limited(retryAfter: 15))
        await clock.advance(by: 15)
        #expect(limiter.attempt("203.0.113.7") == .allowed)
    }

    /// A flood of distinct keys neither grows the limiter nor lets a key past its limit.
    @Test func aFloodOfDistinctKeysKeepsMemoryFixedAndLimitsHeld() async {
        let clock = ManualClock()
        let limiter = RateLimiter(limit: 300, clock: clock)
        let slots = limiter.slotCount
        for index in 0..<100_000 { _ = limiter.attempt("2001:db8:\(index)::/64") }
        #expect(limiter.slotCount == slots)
        var allowed = 0
        for _ in 0..<400 where limiter.attempt("203.0.113.7") == .allowed { allowed += 1 }
        // Never more than the limit; fewer only by what colliding keys already spent (about 6 a slot here).
        #expect(allowed <= 300)
        #expect(allowed >= 260)
    }
}
