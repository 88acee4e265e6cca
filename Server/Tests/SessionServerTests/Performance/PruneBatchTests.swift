import Foundation
import SQLKit
import SessionKitTesting
import Testing
@testable import SessionServer

/// The prune deletes in batches of ``AuthStore/pruneBatchSize`` (issue 44,
/// item 3): more dead rows than one batch are all deleted, each dead
/// session's tokens with it, live ones kept, and the count is the tokens
/// deleted, as when the prune was one transaction.
struct PruneBatchTests {
    @Test(arguments: TestDatabase.all)
    func deadRowsBeyondOneBatchAreAllDeleted(database: TestDatabase) async throws {
        // A tenth of the sessions ended, a tenth revoked, a tenth of the
        // tokens expired (``QueryPlanFixture``): 1,234 of each, over a batch.
        let rows = 12_340
        #expect(rows / 10 > AuthStore.pruneBatchSize)
        let test = try await TestServer.make(database)
        try await test.run { _ in
            let store = test.server.store
            try await QueryPlanFixture.fill(store, now: test.clock.now, rows: rows)
            let pruned = try await store.pruneExpired(now: test.clock.now)
            #expect(pruned == 3 * rows / 10)
            #expect(try await Self.count("sessions", store) == rows - 2 * rows / 10)
            #expect(try await Self.count("refresh_tokens", store) == rows - 3 * rows / 10)
            // No token is left without its session.
            let orphans = try await Self.count(
                "refresh_tokens WHERE session_id NOT IN (SELECT id FROM sessions)", store)
            #expect(orphans == 0)
            #expect(try await store.pruneExpired(now: test.clock.now) == 0)
        }
    }

    /// The prune really runs in batches of ``AuthStore/pruneBatchSize``, and
    /// that size is the one that keeps a refresh's wait behind a batch inside
    /// 50 ms on SQLite (docs/BENCHMARKS.md, "Round 3 — item 3"). Fails if the
    /// batching goes: one statement for all the dead rows reads no `LIMIT`.
    @Test(arguments: TestDatabase.all)
    func eachBatchReadsAtMostOneBatchOfKeys(database: TestDatabase) async throws {
        #expect(AuthStore.pruneBatchSize <= 250, "a batch of 1,000 cost ~70 ms on SQLite")
        let rows = 12_340
        let sql = CapturedSQL()
        let test = try await TestServer.make(database, logger: sql.logger())
        try await test.run { _ in
            let store = test.server.store
            try await QueryPlanFixture.fill(store, now: test.clock.now, rows: rows)
            _ = sql.take()
            #expect(try await store.pruneExpired(now: test.clock.now) == 3 * rows / 10)
            let statements = sql.take()
            // 1,234 dead rows of each kind: that many batches, each its own SELECT.
            let batches = (rows / 10) / AuthStore.pruneBatchSize + 1
            for (name, read, column) in [
                ("ended sessions", "SELECT id FROM sessions WHERE", "not_after"),
                ("revoked sessions", "SELECT id FROM sessions WHERE", "revoked_at"),
                ("expired tokens", "SELECT token_hash FROM refresh_tokens WHERE", "expires_at"),
            ] {
                let reads = statements.filter { $0.hasPrefix(read) && $0.contains(column) }
                #expect(reads.count == batches, "\(name): \(reads.count) reads in \(statements)")
                #expect(reads.allSatisfy { $0.hasSuffix("LIMIT \(AuthStore.pruneBatchSize)") }, "\(name): \(reads)")
            }
        }
    }

    static func count(_ from: String, _ store: AuthStore) async throws -> Int {
        try await store.withTransaction { db in
            try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: from)").first().map { try $0.decode(column: "n", as: Int.self) } ?? -1
        }
    }
}
