import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Refresh tokens live only as SHA-256 hashes at rest, and no secret (token,
/// password) is ever written to the server's logs, even at `trace`.
struct SecretsAtRestTests {
    static let password = "correct-horse-battery"

    @Test func databaseFileHoldsNoTokenOrPassword() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sessionkit-rest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("auth.sqlite").path
        let test = try await TestServer.make(location: .sqlite(path: path))
        let (issued, hashes) = try await test.run { client in
            let issued = try await Self.fullFlow(client, clock: test.clock)
            let hashes = try await test.server.store.withTransaction { db in
                try await db.raw("SELECT token_hash FROM refresh_tokens").all().map {
                    try $0.decode(column: "token_hash", as: String.self)
                }
            }
            return (issued, hashes)
        }
        #expect(hashes.count >= issued.refreshTokens.count)
        #expect(hashes.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        for token in issued.refreshTokens {
            #expect(hashes.contains(RefreshTokenCodec.hash(token)), "a refresh token has no hash row")
        }

        var bytes = Data()
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            bytes.append(try Data(contentsOf: folder.appendingPathComponent(file)))
        }
        #expect(bytes.count > 4096)
        for secret in issued.secrets {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "a secret (\(secret.prefix(4))…) is stored in plain text")
        }
    }

    /// Every row of every table, as text, on each database (PostgreSQL included).
    @Test(arguments: TestDatabase.all)
    func noTableRowHoldsATokenOrPassword(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        let (issued, rows) = try await test.run { client in
            let issued = try await Self.fullFlow(client, clock: test.clock)
            var rows: [String] = []
            for table in ["users", "sessions", "refresh_tokens", "signing_keys", "activities"] {
                let sql: SQLQueryString =
                    database == .postgres
                    ? "SELECT row_to_json(t)::text AS j FROM \(unsafeRaw: table) t"
                    : "SELECT * FROM \(unsafeRaw: table)"
                rows += try await test.server.store.withTransaction { db in
                    try await db.raw(sql).all().map { row in
                        row.allColumns.map { column in
                            (try? row.decode(column: column, as: String.self)) ?? ""
                        }.joined(separator: "|")
                    }
                }
            }
            return (issued, rows)
        }
        #expect(rows.count > 5)
        #expect(rows.contains { $0.contains("secret@example.com") }, "the dump reads the rows")
        for secret in issued.secrets {
            #expect(!rows.contains { $0.contains(secret) }, "a secret (\(secret.prefix(4))…) is stored in plain text")
        }
    }

    @Test(arguments: TestDatabase.all)
    func serverLogsNeverHoldATokenOrItsPrefix(database: TestDatabase) async throws {
        let logs = CapturedLogs()
        var logger = logs.logger()
        logger.logLevel = .trace
        let test = try await TestServer.make(database, logger: logger)
        let issued = try await test.run { client in try await Self.fullFlow(client, clock: test.clock) }
        let lines = logs.all
        #expect(lines.count > 10)
        for secret in issued.secrets {
            #expect(!lines.contains { $0.contains(secret) }, "a secret (\(secret.prefix(4))…) was logged")
        }
    }

    /// Sign-up, a failed and a good sign-in, refreshes, a replay within the
    /// grace, gateway calls (one with the token in the query), a reuse after
    /// the grace and logouts: every path that handles a secret.
    static func fullFlow(_ client: any TestClientProtocol, clock: ManualClock) async throws -> Issued {
        var issued = Issued()
        let first = try await client.signUp("secret@example.com", password: password)
        issued.add(first)
        _ = try await client.signIn("secret@example.com", password: password + "x")
        let second = try await client.signIn("secret@example.com", password: password).decode(TokenResponse.self)
        issued.add(second)
        await clock.advance(by: 3601)
        let rotated = try await client.refresh(first.refreshToken).decode(TokenResponse.self)
        issued.add(rotated)
        #expect(try await client.refresh(first.refreshToken).status == .ok)  // within the grace
        _ = try await client.send(.get, "/v1/auth/me?access_token=\(rotated.accessToken)", bearer: rotated.accessToken)
        _ = try await client.send(.get, "/auth/v1/user", bearer: rotated.accessToken)
        _ = try await client.send(.get, "/v1/sessions", bearer: "\(rotated.accessToken)x")
        await clock.advance(by: 3601)
        let again = try await client.refresh(rotated.refreshToken).decode(TokenResponse.self)
        issued.add(again)
        await clock.advance(by: 11)
        #expect(try await client.refresh(first.refreshToken).goTrueErrorCode == "refresh_token_already_used")
        // The reuse revoked that family; sign in once more to sign out.
        let third = try await client.signIn("secret@example.com", password: password).decode(TokenResponse.self)
        issued.add(third)
        #expect(try await client.send(.post, "/auth/v1/logout", bearer: third.accessToken).status == .noContent)
        return issued
    }

    /// What the flow handed out, and the strings that must never be seen.
    struct Issued: Sendable {
        var refreshTokens: [String] = []
        var accessTokens: [String] = []

        mutating func add(_ response: TokenResponse) {
            refreshTokens.append(response.refreshToken)
            accessTokens.append(response.accessToken)
        }

        /// Full tokens, 7-character prefixes of refresh tokens and of access
        /// token signatures (a JWT's first characters are a shared header),
        /// and the password.
        var secrets: [String] {
            refreshTokens + refreshTokens.map { String($0.prefix(7)) } + accessTokens
                + accessTokens.map { String($0.split(separator: ".")[2].prefix(7)) }
                + accessTokens.map { String($0.split(separator: ".")[1]) } + [password]
        }
    }
}
