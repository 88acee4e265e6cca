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

    static func count(_ from: String, _ store: AuthStore) async throws -> Int {
        try await store.withTransaction { db in
            try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: from)").first().map { try $0.decode(column: "n", as: Int.self) } ?? -1
        }
    }
}
