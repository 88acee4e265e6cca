import Foundation
import SQLKit
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 37, item 4 (an attack): on PostgreSQL the hourly prune deleted every
/// rate-limit window older than an hour, so the day's budget of code guesses
/// (20) started again every two hours: about 240 a day. Each limiter's rows
/// now live its own window.
struct DayCapPruneTests {
    /// 26 hours on a test clock: each hour the prune runs, then the attacker
    /// presents 10 guesses at the address. The day cap lets 20 through in the
    /// first day and 20 more once it ends, never the 260 the hourly prune allowed.
    @Test(arguments: TestDatabase.all)
    func theDayCapSurvivesTheHourlyPrune(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        // Run as the server runs (the database service up, migrated), without a request.
        let judged = try await test.run { _ in
            let day = test.server.limiters[.emailCodeDay]
            var judged: [Int] = []
            for _ in 0..<26 {
                _ = try await test.server.store.pruneExpired(now: test.clock.now)
                var allowed = 0
                for _ in 0..<10 where try await day.attempt("ada@example.com") == .allowed { allowed += 1 }
                judged.append(allowed)
                await test.clock.advance(by: 3600)
            }
            return judged
        }
        #expect(judged.reduce(0, +) == 40, "guesses judged each hour: \(judged)")
        #expect(judged[2..<24].allSatisfy { $0 == 0 })
    }

    /// A row no rule names any more (or one written before rows named their
    /// limiter) is kept for the longest window, so no live count is lost.
    @Test(.enabled(if: TestDatabase.postgresURL != nil, "SESSIONKIT_TEST_POSTGRES_URL is not set"))
    func anUnnamedRowLivesTheLongestWindow() async throws {
        let test = try await TestServer.make(.postgres)
        try await test.run { _ in
            let store = test.server.store
            _ = try await store.countRateLimited(key: "legacy", limiter: "", window: 86_400, now: test.clock.now)
            await test.clock.advance(by: 7200)
            _ = try await store.pruneExpired(now: test.clock.now)
            #expect(try await Self.rows(store) == 1)
            await test.clock.advance(by: 86_400)
            _ = try await store.pruneExpired(now: test.clock.now)
            #expect(try await Self.rows(store) == 0)
        }
    }

    static func rows(_ store: AuthStore) async throws -> Int {
        try await store.withTransaction { db in try await db.raw("SELECT key FROM rate_limits").all().count }
    }
}
