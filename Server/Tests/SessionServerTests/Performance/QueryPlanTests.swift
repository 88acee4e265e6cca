import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 44, item 3: every query on the paths that run as the tables grow
/// (sign-in, refresh, `GET /v1/auth/me`, the hourly prune) reads through an
/// index, on SQLite and on PostgreSQL. The statements are the ones the
/// server really sends, captured from its query log (docs/BENCHMARKS.md,
/// "Round 3 — item 3").
struct QueryPlanTests {
    @Test(arguments: TestDatabase.all)
    func everyQueryOnTheGrowingPathsUsesAnIndex(database: TestDatabase) async throws {
        let scans = try await Self.scans(database) { _ in }
        #expect(scans.isEmpty, "\(scans.map(\.description).joined(separator: "\n\n"))")
    }

    /// The check can fail: without the index the prune finds dead sessions
    /// by, it names the scan of `sessions` (the defect this test found).
    @Test(arguments: TestDatabase.all)
    func aMissingIndexIsNamed(database: TestDatabase) async throws {
        let scans = try await Self.scans(database) { store in
            try await store.withTransaction { db in try await db.raw("DROP INDEX sessions_not_after").run() }
        }
        #expect(scans.contains { $0.path == "prune" && $0.table == "sessions" }, "\(scans)")
    }

    /// Signs up one user, fills the tables, then captures each path's
    /// statements (after `sabotage`) and returns the plans' full scans.
    static func scans(
        _ database: TestDatabase, sabotage: @escaping @Sendable (AuthStore) async throws -> Void
    ) async throws -> [QueryPlans.Scan] {
        let sql = CapturedSQL()
        // No cached session checks or users: /v1/auth/me must show its reads.
        let test = try await TestServer.make(database, logger: sql.logger()) { $0.sessionCheckCacheTTL = 0 }
        return try await test.run { client in
            let store = test.server.store
            _ = try await client.signUp("ada@example.com", password: "correct-horse")
            try await QueryPlanFixture.fill(store, now: test.clock.now)
            try await sabotage(store)
            _ = sql.take()
            let signedIn = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let signIn = sql.take()
            let refreshed = try await client.refresh(signedIn.refreshToken).decode(TokenResponse.self)
            let refresh = sql.take()
            let me = try await client.send(.get, "/v1/auth/me", bearer: refreshed.accessToken)
            #expect(me.status.code == 200, "\(me.text)")
            let user = sql.take()
            _ = try await store.pruneExpired(now: test.clock.now)
            let prune = sql.take()
            for (name, statements) in [("sign-in", signIn), ("refresh", refresh), ("me", user), ("prune", prune)] {
                #expect(!statements.isEmpty, "no statement captured for \(name): is the query log still at debug?")
            }
            return try await QueryPlans.fullScans(
                [("sign-in", signIn), ("refresh", refresh), ("me", user), ("prune", prune)], store: store)
        }
    }
}
