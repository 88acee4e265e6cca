import Foundation
import Logging
import SQLKit
import SessionCore
import SessionServer
import Testing

/// The OAuth migration rebuilds SQLite's `users` (email becomes nullable):
/// rows written before it must survive, unchanged.
struct OAuthMigrationTests {
    @Test func usersWrittenBeforeTheOAuthMigrationSurviveIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth-migration-\(UUID().uuidString)")
        defer { _ = try? FileManager.default.removeItem(at: folder) }
        var logger = Logger(label: "migration-test")
        logger.logLevel = .warning
        let server = try await AuthServer(
            configuration: .testing(clock: SystemClock(), database: .sqlite(path: folder.appendingPathComponent("auth.sqlite").path)),
            logger: logger)
        // withDatabase closes the connection at the end, as the server does on shutdown.
        try await server.withDatabase { try await Self.upgrade(server.store) }
    }

    static func upgrade(_ store: AuthStore) async throws {
        // The schema as the nine steps before OAuth left it (only `users` matters
        // here, and `sessions` and `refresh_tokens`, which later steps alter).
        try await store.withTransaction { db in
            try await db.raw("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY)").run()
            for version in 1...9 { try await db.raw("INSERT INTO schema_migrations (version) VALUES (\(bind: version))").run() }
            try await db.raw(
                """
                CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at REAL NOT NULL,
                refreshed_at REAL, not_after REAL NOT NULL, revoked_at REAL, revoked_reason TEXT, user_agent TEXT,
                ip TEXT, active_token_hash TEXT)
                """
            ).run()
            try await db.raw(
                """
                CREATE TABLE refresh_tokens (token_hash TEXT PRIMARY KEY, session_id TEXT NOT NULL, parent_hash TEXT,
                created_at REAL NOT NULL, expires_at REAL NOT NULL, rotated_at REAL, successor_hash TEXT, sealed_successor TEXT)
                """
            ).run()
            try await db.raw(
                """
                CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
                user_metadata TEXT NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL,
                last_sign_in_at REAL, email_confirmed_at REAL)
                """
            ).run()
            try await db.raw(
                """
                INSERT INTO users (id, email, password_hash, user_metadata, created_at, updated_at, email_confirmed_at)
                VALUES ('u1', 'ada@example.com', 'hash', '{"plan":"pro"}', 1000, 2000, 1000)
                """
            ).run()
        }
        // The OAuth steps, sessions.auth_method, rate_limits, one_time_tokens, the admin steps, the bound steps (issue 29),
        // the rate limits' limiter column (issue 37), second factors (7, issue 38), passkeys (4, issue 39)
        // anonymous users (2, issue 40), link flows (2, issue 40), email changes (5, issue 40),
        // DPoP's session binding and proof table (3, issue 43) and the growth indexes (4, issue 44).
        #expect(try await store.migrate() == 53)
        let user = try #require(try await store.user(email: "ada@example.com"))
        #expect(user.id == "u1")
        #expect(user.userMetadata["plan"] == "pro")
        #expect(user.updatedAt == Date(timeIntervalSince1970: 2000))
        #expect(user.identities.isEmpty)
        #expect(try await store.migrate() == 0)
    }
}
