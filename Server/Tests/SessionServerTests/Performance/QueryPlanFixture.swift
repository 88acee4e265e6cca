import Foundation
import SQLKit
@testable import SessionServer

/// Rows enough that a planner's choice means something (issue 44, item 3).
///
/// PostgreSQL plans by cost: on the empty tables of a fresh test schema a
/// sequential scan is the cheapest plan and says nothing about the indexes.
/// With this many rows in the tables that grow with users, and statistics
/// taken, it picks a sequential scan only when no index serves the query.
/// The rows look like a live server's an hour before its prune: most sessions
/// end in the future, a tenth ended two days ago and a tenth were revoked two
/// days ago (so the prune's deletes run and are judged), one refresh token a
/// session (a tenth of them expired), one identity and one audit row a user.
enum QueryPlanFixture {
    static let rows = 20_000

    /// The tables that grow with users and are filled here.
    static let grownTables: Set<String> = ["users", "sessions", "refresh_tokens", "identities", "audit_log"]

    static func fill(_ store: AuthStore, now: Date, rows: Int = QueryPlanFixture.rows) async throws {
        let f = store.flavor
        let from = series(f, rows)
        let t = now.stored
        let later = t + 30 * 86_400
        let ended = t - 2 * 86_400
        let statements = [
            """
            INSERT INTO users (id, email, password_hash, user_metadata, created_at, updated_at)
            SELECT 'fill-user-' || i, 'fill-' || i || '@example.com', 'x', '{}', \(t), \(t) FROM \(from)
            """,
            """
            INSERT INTO sessions (id, user_id, created_at, refreshed_at, not_after, revoked_at, active_token_hash)
            SELECT 'fill-session-' || i, 'fill-user-' || i, \(t), \(t),
            CASE WHEN i % 10 = 0 THEN \(ended) ELSE \(later) END, CASE WHEN i % 10 = 5 THEN \(ended) END,
            'fill-token-' || i FROM \(from)
            """,
            """
            INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at)
            SELECT 'fill-token-' || i, 'fill-session-' || i, \(t), CASE WHEN i % 10 = 3 THEN \(ended) ELSE \(later) END
            FROM \(from)
            """,
            """
            INSERT INTO identities (id, user_id, provider, provider_id, identity_data, email, created_at, updated_at)
            SELECT 'fill-identity-' || i, 'fill-user-' || i, 'email', 'fill-user-' || i, '{}', 'fill-' || i || '@example.com',
            \(t), \(t) FROM \(from)
            """,
            """
            INSERT INTO audit_log (id, created_at, actor, action, target, ip, details)
            SELECT 'fill-audit-' || i, \(t), 'fill-user-' || i, 'login', 'fill-user-' || i, '127.0.0.1', '{}' FROM \(from)
            """,
        ]
        try await store.withTransaction { db in
            for statement in statements { try await db.raw("\(unsafeRaw: statement)").run() }
        }
        // Statistics, so each planner knows the tables' sizes.
        try await store.withTransaction { db in try await db.raw("ANALYZE").run() }
    }

    /// A `FROM` item yielding `i` = 1…count.
    static func series(_ f: SQLFlavor, _ count: Int) -> String {
        f == .postgres
            ? "generate_series(1, \(count)) AS n(i)"
            : "(WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < \(count)) SELECT i FROM s) AS n"
    }
}
