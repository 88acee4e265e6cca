import Foundation
import HTTPTypes
import SessionKitTesting
import HummingbirdTesting
import Logging
import SessionCore
import SessionServer
import Testing

/// Issue 15 §4: at any log level, the SQL drivers log queries without their
/// bound values, so no token, password, bcrypt hash or PEM reaches the log.
struct LogRedactionTests {
    @Test(arguments: TestDatabase.all)
    func aTraceLevelRunLogsQueriesButNoSecret(database: TestDatabase) async throws {
        let logs = CapturedLogs()
        let test = try await TestServer.make(database, logger: logs.logger(level: .trace))
        let password = "correct-horse-battery"
        let tokens = try await test.run { client in
            let signUp = try await client.signUp(password: password)
            let signIn = try await client.signIn("ada@example.com", password: password).decode(TokenResponse.self)
            let refreshed = try await client.refresh(signIn.refreshToken).decode(TokenResponse.self)
            try await test.server.keyRing.rotate()
            let afterRotation = try await client.refresh(refreshed.refreshToken).decode(TokenResponse.self)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: afterRotation.accessToken).status == .ok)
            return [signUp, signIn, refreshed, afterRotation].flatMap { [$0.accessToken, $0.refreshToken] }
        }
        let lines = logs.all
        // The test can see queries at all: otherwise "no secret" would prove nothing.
        #expect(lines.contains { $0.contains("Executing query") && $0.contains("refresh_tokens") })
        let forbidden = [password, "$2a$", "$2b$", "$2y$", "PRIVATE KEY", "BEGIN EC"]
            + tokens.map { String($0.prefix(12)) } + tokens.map { String($0.suffix(12)) }
        for secret in forbidden {
            let leaking = lines.filter { $0.contains(secret) }
            #expect(leaking.isEmpty, "'\(secret.prefix(6))…' is in the log: \(leaking.first?.prefix(300) ?? "")")
        }
    }
}
