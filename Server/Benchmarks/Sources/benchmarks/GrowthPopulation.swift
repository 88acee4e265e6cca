import Foundation
import HummingbirdBcrypt
import SQLKit
import SessionServer

/// Fills a database with `users` users as a live server holds them (item 8):
/// each with one identity and 10 sessions, each session with its active
/// refresh token and the audit row of its sign-in. Built in SQL by the
/// database itself (a generated series, `INSERT ... SELECT`, 50,000 users a
/// transaction), not through the HTTP API, with one bcrypt hash for every
/// user. Ids are zero-padded so every index grows at its end.
///
/// A populated database is kept under /tmp (SQLite: a file; PostgreSQL: a
/// schema of the benchmarks' own server) keyed by the schema's version and
/// size, and reused while its marker row says it is complete and recent.
enum GrowthPopulation {
    static let sessionsPerUser = 10
    static let password = "correct-horse-battery"
    static let bcryptCost: UInt8 = 4
    static let directory = "/tmp/sessionkit-growth"

    /// The schema's version: how many migration steps a fresh database runs.
    static func schemaVersion() async throws -> Int {
        let store = try await AuthStore.open(.sqliteInMemory, logger: Bench.quietLogger("bench-growth-version"))
        return try await store.migrate()
    }

    static func location(postgresURL: String?, users: Int, version: Int) throws -> DatabaseLocation {
        guard let postgresURL else {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return .sqlite(path: "\(directory)/v\(version)-\(users).sqlite")
        }
        return .postgres(url: postgresURL + (postgresURL.contains("?") ? "&" : "?") + "schema=growth_v\(version)_\(users)")
    }

    /// Populates `store` (already migrated) unless a complete copy is there. Returns the seconds it took, or nil when cached.
    static func ensure(_ store: AuthStore, users: Int) async throws -> Double? {
        let now = Date().timeIntervalSince1970
        let marker = try await store.withTransaction { db in
            try await db.raw("CREATE TABLE IF NOT EXISTS growth_marker (users BIGINT NOT NULL, populated_at DOUBLE PRECISION NOT NULL)").run()
            return try await db.raw("SELECT users, populated_at FROM growth_marker").first()
        }
        if let marker, try marker.decode(column: "users", as: Int.self) == users,
            try now - marker.decode(column: "populated_at", as: Double.self) < 7 * 86_400
        {
            return nil
        }
        guard marker == nil else { throw BenchError("growth database for \(users) users is stale or partial: delete it (\(directory), or its schema)") }
        let hash = Bcrypt.hash(password, cost: bcryptCost)
        return try await Stopwatch.seconds {
            let batch = 50_000
            var first = 1
            while first <= users {
                let last = min(first + batch - 1, users)
                let statements = Self.statements(store.flavor, first: first, last: last, hash: hash, now: now)
                try await store.withTransaction { db in
                    for statement in statements { try await db.raw("\(unsafeRaw: statement)").run() }
                }
                first = last + 1
            }
            try await store.withTransaction { db in
                try await db.raw("ANALYZE").run()
                try await db.raw("INSERT INTO growth_marker (users, populated_at) VALUES (\(bind: users), \(bind: now))").run()
            }
        }
    }

    /// The user id of user `index` (1…users), as the SQL below writes it.
    static func userID(_ index: Int) -> String { String(format: "g%08d", index) }
    static func email(_ index: Int) -> String { "\(userID(index))@growth.test" }

    static func statements(_ f: SQLFlavor, first: Int, last: Int, hash: String, now t: Double) -> [String] {
        let user = pad(f, "'g'", "i", 8)
        let session = "\(user) || '-' || \(pad(f, "''", "j", 2))"
        let users = f == .postgres ? "generate_series(\(first), \(last)) AS u(i)" : recursive("i", first, last)
        let sessions = users + ", " + (f == .postgres ? "generate_series(1, \(sessionsPerUser)) AS v(j)" : recursive("j", 1, sessionsPerUser))
        let later = t + 80 * 86_400
        let expires = t + 30 * 86_400
        return [
            """
            INSERT INTO users (id, email, password_hash, user_metadata, created_at, updated_at, last_sign_in_at, email_confirmed_at)
            SELECT \(user), \(user) || '@growth.test', '\(hash)', '{}', \(t - 86_400), \(t), \(t), \(t - 86_400) FROM \(users)
            """,
            """
            INSERT INTO identities (id, user_id, provider, provider_id, identity_data, email, created_at, updated_at, last_sign_in_at)
            SELECT 'i' || \(user), \(user), 'email', \(user), '{}', \(user) || '@growth.test', \(t), \(t), \(t) FROM \(users)
            """,
            """
            INSERT INTO sessions (id, user_id, created_at, refreshed_at, not_after, user_agent, ip, active_token_hash, auth_method, aal)
            SELECT 's' || \(session), \(user), \(t), \(t), \(later), 'growth-bench', '127.0.0.1', 'h' || \(session), 'password', 'aal1'
            FROM \(sessions)
            """,
            """
            INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at)
            SELECT 'h' || \(session), 's' || \(session), \(t), \(expires) FROM \(sessions)
            """,
            """
            INSERT INTO audit_log (id, created_at, actor, action, target, ip, details)
            SELECT 'a' || \(session), \(t), \(user), 'login', \(user), '127.0.0.1', '{}' FROM \(sessions)
            """,
        ]
    }

    /// Sessions that ended two days ago, with their tokens, for the prune to delete: `count` of them.
    static func deadRows(_ f: SQLFlavor, count: Int, round: Int, now t: Double) -> [String] {
        let id = "'dead-\(round)-' || " + pad(f, "''", "i", 8)
        let rows = f == .postgres ? "generate_series(1, \(count)) AS u(i)" : recursive("i", 1, count)
        let ended = t - 2 * 86_400
        return [
            """
            INSERT INTO sessions (id, user_id, created_at, refreshed_at, not_after, user_agent, ip, active_token_hash, auth_method, aal)
            SELECT 's' || \(id), \(pad(f, "'g'", "(i % 1000) + 1", 8)), \(ended - 86_400), \(ended), \(ended), 'growth-bench',
            '127.0.0.1', 'h' || \(id), 'password', 'aal1' FROM \(rows)
            """,
            """
            INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at)
            SELECT 'h' || \(id), 's' || \(id), \(ended - 86_400), \(ended) FROM \(rows)
            """,
        ]
    }

    /// `prefix` followed by `expression` zero-padded to `width` digits.
    static func pad(_ f: SQLFlavor, _ prefix: String, _ expression: String, _ width: Int) -> String {
        f == .postgres
            ? "\(prefix) || lpad((\(expression))::text, \(width), '0')"
            : "\(prefix) || printf('%0\(width)d', \(expression))"
    }

    /// SQLite's series: a recursive common table expression as a `FROM` item.
    static func recursive(_ name: String, _ first: Int, _ last: Int) -> String {
        "(WITH RECURSIVE r(\(name)) AS (SELECT \(first) UNION ALL SELECT \(name) + 1 FROM r WHERE \(name) < \(last)) SELECT \(name) FROM r) AS r_\(name)"
    }
}
