import Foundation
import SQLKit

/// The growing part of the hourly prune: dead sessions and spent refresh
/// tokens, deleted in bounded batches (issue 44, item 3; docs/BENCHMARKS.md,
/// "Round 3 — item 3").
///
/// Why batches: on SQLite every transaction runs on the server's one
/// connection, so a refresh waits for the whole transaction in front of it.
/// A prune in one transaction made a refresh wait for every dead row of the
/// hour; a batch of ``pruneBatchSize`` rows keeps that wait short, and the
/// refreshes queued behind a batch run before the next one: the SQLite
/// driver's lock is first come, first served, and the prune yields between
/// batches so a refresh already on its way reaches the queue first. On
/// PostgreSQL a batch blocks no refresh that can succeed (it locks only dead
/// rows; docs/BENCHMARKS.md), and the batches keep each transaction's locks
/// and WAL small.
///
/// Why these statements: each reads through one index (`QueryPlanTests`).
/// The single `expires_at <= $1 OR session_id IN (dead sessions)` the prune
/// used before could not: PostgreSQL read the whole `refresh_tokens` table.
/// Each batch reads its keys once and deletes by them (bound): a
/// `DELETE ... IN (SELECT ... LIMIT n)` may join back through a full scan.
/// `ORDER BY` the indexed column makes the index the cheap plan under a
/// `LIMIT`, where a sequential scan that "stops early" would otherwise look
/// cheaper to PostgreSQL and read every live row when dead ones are few.
extension AuthStore {
    /// Sessions (with their tokens) or tokens one prune transaction deletes at most.
    ///
    /// Why 250: a refresh may wait behind one batch on SQLite's one
    /// connection, and the goal is that it never waits more than 50 ms
    /// (docs/BENCHMARKS.md, "Round 3 — item 3"). A batch of 1,000 sessions
    /// with their tokens cost about 70 ms there, so a quarter of it is about
    /// 18 ms, well inside the budget on a loaded machine. Smaller only adds
    /// transactions (and commits) to the prune.
    static let pruneBatchSize = 250

    /// Deletes the sessions that ended at or before `cutoff` (expired or
    /// revoked) with every refresh token of theirs, then the refresh tokens
    /// that expired at or before `cutoff`. Each batch commits on its own: a
    /// prune stopped halfway leaves only whole sessions deleted.
    ///
    /// - Returns: how many refresh token rows were deleted.
    func pruneDeadSessions(cutoff: Double) async throws -> Int {
        var deleted = 0
        for column in ["not_after", "revoked_at"] {
            while true {
                let batch = try await driver.transaction { db in
                    try await Self.pruneSessionBatch(endedBy: column, cutoff: cutoff, on: db)
                }
                deleted += batch.tokens
                if batch.sessions < Self.pruneBatchSize { break }
                await Task.yield()
            }
        }
        while true {
            let tokens = try await driver.transaction { db in
                let hashes = try await db.raw(
                    """
                    SELECT token_hash FROM refresh_tokens WHERE expires_at <= \(bind: cutoff)
                    ORDER BY expires_at LIMIT \(unsafeRaw: String(Self.pruneBatchSize))
                    """
                ).all().map { try $0.decode(column: "token_hash", as: String.self) }
                guard !hashes.isEmpty else { return 0 }
                try await db.raw("DELETE FROM refresh_tokens WHERE token_hash IN (\(binds: hashes))").run()
                return hashes.count
            }
            deleted += tokens
            if tokens < Self.pruneBatchSize { return deleted }
            await Task.yield()
        }
    }

    /// One batch of sessions whose `column` (`not_after` or `revoked_at`) is
    /// at or before `cutoff`: their tokens first, then the sessions. The ids
    /// are read once and bound, so both deletes name the same sessions.
    private static func pruneSessionBatch(
        endedBy column: String, cutoff: Double, on db: any SQLDatabase
    ) async throws -> (sessions: Int, tokens: Int) {
        let ids = try await db.raw(
            """
            SELECT id FROM sessions WHERE \(ident: column) <= \(bind: cutoff)
            ORDER BY \(ident: column) LIMIT \(unsafeRaw: String(pruneBatchSize))
            """
        ).all().map { try $0.decode(column: "id", as: String.self) }
        guard !ids.isEmpty else { return (0, 0) }
        let tokens = try await db.raw(
            "DELETE FROM refresh_tokens WHERE session_id IN (\(binds: ids)) RETURNING token_hash"
        ).all().count
        try await db.raw("DELETE FROM sessions WHERE id IN (\(binds: ids))").run()
        return (ids.count, tokens)
    }
}
