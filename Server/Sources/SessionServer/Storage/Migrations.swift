import SQLKit

/// The schema, as ordered steps. Each runs once; `schema_migrations` records
/// which have. Append new steps; never edit an applied one.
enum Migrations {
    static func steps(_ f: SQLFlavor) -> [String] {
        // In two statements: one concatenation of every step took the type checker too long.
        let base: [String] = [
            """
            CREATE TABLE IF NOT EXISTS users (
              id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
              user_metadata TEXT NOT NULL, created_at \(f.timestamp) NOT NULL, updated_at \(f.timestamp) NOT NULL,
              last_sign_in_at \(f.timestamp), email_confirmed_at \(f.timestamp))
            """,
            """
            CREATE TABLE IF NOT EXISTS sessions (
              id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at \(f.timestamp) NOT NULL,
              refreshed_at \(f.timestamp), not_after \(f.timestamp) NOT NULL, revoked_at \(f.timestamp),
              revoked_reason TEXT, user_agent TEXT, ip TEXT, active_token_hash TEXT)
            """,
            "CREATE INDEX IF NOT EXISTS sessions_user_id ON sessions (user_id)",
            """
            CREATE TABLE IF NOT EXISTS refresh_tokens (
              token_hash TEXT PRIMARY KEY, session_id TEXT NOT NULL, parent_hash TEXT,
              created_at \(f.timestamp) NOT NULL, expires_at \(f.timestamp) NOT NULL, rotated_at \(f.timestamp),
              successor_hash TEXT, sealed_successor TEXT)
            """,
            "CREATE INDEX IF NOT EXISTS refresh_tokens_session_id ON refresh_tokens (session_id)",
            "CREATE INDEX IF NOT EXISTS refresh_tokens_expires_at ON refresh_tokens (expires_at)",
            """
            CREATE TABLE IF NOT EXISTS signing_keys (
              kid TEXT PRIMARY KEY, private_key_pem TEXT NOT NULL, created_at \(f.timestamp) NOT NULL,
              retired_at \(f.timestamp), generation \(f.integer) NOT NULL)
            """,
            """
            CREATE TABLE IF NOT EXISTS activities (
              id TEXT PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL, distance_m \(f.double) NOT NULL,
              started_at \(f.timestamp) NOT NULL, created_at \(f.timestamp) NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS activities_user_id ON activities (user_id)",
        ] + oauthSteps(f) + [
            // How each session signed in (`password`, `oauth`), for the token's `amr` claim.
            "ALTER TABLE sessions ADD COLUMN auth_method TEXT",
            // Rate-limit windows shared by replicas on PostgreSQL (SharedRateLimiter); unused on SQLite.
            // `key` is a SHA-256 of the limiter's name and the key: no address or email is stored.
            """
            CREATE TABLE IF NOT EXISTS rate_limits (
              key TEXT PRIMARY KEY, window_start \(f.double) NOT NULL, count \(f.integer) NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS rate_limits_window_start ON rate_limits (window_start)",
        ] + emailCodeSteps(f) + adminSteps(f) + boundSteps(f)
        return base + securityRoundSteps(f) + mfaSteps(f) + passkeySteps(f) + anonymousSteps(f) + linkingSteps(f) + emailChangeSteps(f)
            + dpopSteps(f)
            + growthIndexSteps(f)
    }

    /// Issue 29, items 8 and 12: successor recoveries counted per rotation, and
    /// console sessions tied to the service-role key they signed in with
    /// (its signing key, expiry, name and id; never the key).
    static func boundSteps(_ f: SQLFlavor) -> [String] {
        [
            "ALTER TABLE refresh_tokens ADD COLUMN recovered_at \(f.timestamp)",
            "ALTER TABLE refresh_tokens ADD COLUMN recoveries \(f.integer) NOT NULL DEFAULT 0",
            "ALTER TABLE web_sessions ADD COLUMN key_kid TEXT",
            "ALTER TABLE web_sessions ADD COLUMN key_expires_at \(f.timestamp)",
            "ALTER TABLE web_sessions ADD COLUMN key_name TEXT",
            "ALTER TABLE web_sessions ADD COLUMN key_id TEXT",
            "CREATE INDEX IF NOT EXISTS web_sessions_expires_at ON web_sessions (expires_at)",
        ]
    }

    /// The admin API: bans, operator-set `app_metadata`, and the audit log
    /// (who did what, when, from where; never a token).
    static func adminSteps(_ f: SQLFlavor) -> [String] {
        [
            "ALTER TABLE users ADD COLUMN banned_until \(f.timestamp)",
            "ALTER TABLE users ADD COLUMN app_metadata TEXT",
            """
            CREATE TABLE IF NOT EXISTS audit_log (
              id TEXT PRIMARY KEY, created_at \(f.timestamp) NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
              target TEXT, ip TEXT, details TEXT NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS audit_log_created_at ON audit_log (created_at)",
            // Signed-in browsers of /account and /admin: the cookie's SHA-256, never the cookie.
            """
            CREATE TABLE IF NOT EXISTS web_sessions (
              token_hash TEXT PRIMARY KEY, kind TEXT NOT NULL, user_id TEXT, session_id TEXT, csrf TEXT NOT NULL,
              created_at \(f.timestamp) NOT NULL, expires_at \(f.timestamp) NOT NULL)
            """,
        ]
    }

    /// Email one-time codes and links (sign-in and password recovery): one
    /// outstanding row per address and purpose, both secrets stored only as
    /// SHA-256 (docs/DESIGN.md, "Email codes and links").
    static func emailCodeSteps(_ f: SQLFlavor) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS one_time_tokens (
              id TEXT PRIMARY KEY, purpose TEXT NOT NULL, email TEXT NOT NULL, code_hash TEXT NOT NULL,
              link_hash TEXT NOT NULL UNIQUE, create_user \(f.integer) NOT NULL, user_metadata TEXT NOT NULL,
              created_at \(f.timestamp) NOT NULL, expires_at \(f.timestamp) NOT NULL, attempts \(f.integer) NOT NULL,
              UNIQUE (email, purpose))
            """,
            "CREATE INDEX IF NOT EXISTS one_time_tokens_expires_at ON one_time_tokens (expires_at)",
        ]
    }

    /// OAuth sign-in: users without an email (Strava gives none), linked
    /// identities, and flow states with their one-time codes.
    static func oauthSteps(_ f: SQLFlavor) -> [String] {
        // SQLite cannot drop NOT NULL in place: rebuild the table, same columns.
        let nullableEmail =
            f == .sqlite
            ? [
                """
                CREATE TABLE users_v2 (
                  id TEXT PRIMARY KEY, email TEXT UNIQUE, password_hash TEXT NOT NULL,
                  user_metadata TEXT NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL,
                  last_sign_in_at REAL, email_confirmed_at REAL)
                """,
                """
                INSERT INTO users_v2 (id, email, password_hash, user_metadata, created_at, updated_at, last_sign_in_at,
                email_confirmed_at) SELECT id, email, password_hash, user_metadata, created_at, updated_at,
                last_sign_in_at, email_confirmed_at FROM users
                """,
                "DROP TABLE users",
                "ALTER TABLE users_v2 RENAME TO users",
            ]
            : ["ALTER TABLE users ALTER COLUMN email DROP NOT NULL"]
        return nullableEmail + [
            """
            CREATE TABLE IF NOT EXISTS identities (
              id TEXT PRIMARY KEY, user_id TEXT NOT NULL, provider TEXT NOT NULL, provider_id TEXT NOT NULL,
              identity_data TEXT NOT NULL, email TEXT, created_at \(f.timestamp) NOT NULL,
              updated_at \(f.timestamp) NOT NULL, last_sign_in_at \(f.timestamp), UNIQUE (provider, provider_id))
            """,
            "CREATE INDEX IF NOT EXISTS identities_user_id ON identities (user_id)",
            """
            CREATE TABLE IF NOT EXISTS oauth_flows (
              id TEXT PRIMARY KEY, state_hash TEXT NOT NULL UNIQUE, provider TEXT NOT NULL, redirect_to TEXT NOT NULL,
              code_challenge TEXT NOT NULL, code_challenge_method TEXT NOT NULL, created_at \(f.timestamp) NOT NULL,
              state_expires_at \(f.timestamp) NOT NULL, state_used_at \(f.timestamp), user_id TEXT,
              auth_code_hash TEXT UNIQUE, auth_code_expires_at \(f.timestamp), auth_code_used_at \(f.timestamp))
            """,
            "CREATE INDEX IF NOT EXISTS oauth_flows_state_expires_at ON oauth_flows (state_expires_at)",
        ]
    }

    /// The lock replicas migrating one schema take turns on.
    ///
    /// Keyed by schema (`public` when the URL names none): servers of other
    /// schemas on the same database, such as other tenants or parallel test
    /// runs, never queue behind a slow migration that is not theirs. Found when
    /// a migration stalled mid-transaction held up every server on the database.
    static func lockStatement(schema: String?) -> SQLQueryString {
        "SELECT pg_advisory_xact_lock(hashtext(\(bind: "sessionkit-migrations:" + (schema ?? "public"))))"
    }

    /// Applies every step not yet recorded, in one transaction.
    static func run(on driver: any DatabaseDriver, schema: String?) async throws -> Int {
        let flavor = driver.flavor
        return try await driver.transaction { db in
            if flavor == .postgres {
                // Two replicas starting together take turns here.
                try await db.raw(lockStatement(schema: schema)).run()
                if let schema {
                    try await db.raw("CREATE SCHEMA IF NOT EXISTS \(ident: schema)").run()
                }
            }
            try await db.raw(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version \(unsafeRaw: flavor.integer) PRIMARY KEY)"
            ).run()
            let rows = try await db.raw("SELECT version FROM schema_migrations").all()
            let applied = Set(try rows.map { try $0.decode(column: "version", as: Int.self) })
            var count = 0
            for (index, step) in steps(flavor).enumerated() where !applied.contains(index + 1) {
                try await db.raw("\(unsafeRaw: step)").run()
                try await db.raw("INSERT INTO schema_migrations (version) VALUES (\(bind: index + 1))").run()
                count += 1
            }
            return count
        }
    }
}
