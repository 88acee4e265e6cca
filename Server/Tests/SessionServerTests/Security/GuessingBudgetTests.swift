import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 29, item 3: an email code could be guessed about 14,400 times a day
/// per address (five tries a code, a new code a minute per purpose, no budget
/// across them), and a password 30 times a minute. Each address now has a
/// budget of codes presented (10 an hour, 20 a day) across reissues and
/// purposes, and a password 10 sign-ins a minute and 60 an hour.
struct GuessingBudgetTests {
    static func run(
        _ database: TestDatabase = .sqlite,
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol, RecordingMailTransport) async throws -> Void
    ) async throws {
        try await EmailTestServer.run(
            database,
            configure: {
                $0.emailsPerMinutePerAddress = 1_000
                $0.tokenRequestsPerMinutePerIP = 1_000_000
            }, body)
    }

    static func wrong(_ code: String) -> String { code == "000000" ? "000001" : "000000" }

    /// Guesses `count` wrong codes at a fresh code of `type`; returns the fresh code.
    @discardableResult
    static func guess(
        _ count: Int, type: String, _ client: any TestClientProtocol, _ mail: RecordingMailTransport
    ) async throws -> String {
        _ = type == "recovery" ? try await client.requestReset("ada@example.com") : try await client.requestCode("ada@example.com")
        let code = try #require(try await mail.next().code)
        for _ in 0..<count {
            #expect(try await client.verify(type: type, email: "ada@example.com", code: Self.wrong(code)).status == .forbidden)
        }
        return code
    }

    /// The attack: four wrong guesses per code (below the per-code cap), a new
    /// code each time, sign-in and recovery codes in turn. Before the fix every
    /// new code started again at five tries.
    @Test(arguments: TestDatabase.all)
    func reissuedCodesOfEitherPurposeShareOneBudget(database: TestDatabase) async throws {
        try await Self.run(database) { test, client, mail in
            _ = try await client.signUp("ada@example.com")
            try await Self.guess(4, type: "email", client, mail)
            try await Self.guess(4, type: "recovery", client, mail)
            let code = try await Self.guess(2, type: "magiclink", client, mail)
            // The eleventh code presented this hour, the right one, is refused: the budget is the address's.
            let refused = try await client.verify(type: "email", email: "ada@example.com", code: code)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.goTrueErrorCode == "over_request_rate_limit")
            #expect(refused.headers[.retryAfter].flatMap(Int.init).map { $0 > 60 && $0 <= 3600 } == true)
            // Other addresses are not affected.
            _ = try await client.requestCode("bob@example.com")
            let bobs = try #require(try await mail.next().code)
            #expect(try await client.verify(type: "email", email: "bob@example.com", code: bobs).status == .ok)

            let actions = try await test.server.store.auditLog(page: 1, perPage: 50).entries.map(\.action)
            #expect(actions.filter { $0 == "email_code_guesses_limited" }.count == 1)
            _ = try await client.verify(type: "email", email: "ada@example.com", code: code)
            #expect(try await test.server.store.auditLog(page: 1, perPage: 50).entries.filter { $0.action == "email_code_guesses_limited" }.count == 1)
            #expect(test.server.metrics.render().contains("auth_email_code_guesses_limited_total 2"))

            // An hour on, a new code works.
            await test.clock.advance(by: 3601)
            let fresh = try await Self.guess(0, type: "email", client, mail)
            #expect(try await client.verify(type: "email", email: "ada@example.com", code: fresh).status == .ok)
        }
    }

    @Test func theDayHasItsOwnBudget() async throws {
        try await Self.run { test, client, mail in
            _ = try await client.signUp("ada@example.com")
            try await Self.guess(4, type: "email", client, mail)
            try await Self.guess(4, type: "email", client, mail)
            try await Self.guess(2, type: "email", client, mail)
            await test.clock.advance(by: 3601)
            try await Self.guess(4, type: "email", client, mail)
            try await Self.guess(4, type: "email", client, mail)
            let code = try await Self.guess(2, type: "email", client, mail)
            await test.clock.advance(by: 3601)
            // Twenty presented today: refused for the rest of the day, whatever the hour.
            #expect(try await client.verify(type: "email", email: "ada@example.com", code: code).status == .tooManyRequests)
            await test.clock.advance(by: 86_400)
            let fresh = try await Self.guess(0, type: "email", client, mail)
            #expect(try await client.verify(type: "email", email: "ada@example.com", code: fresh).status == .ok)
        }
    }

    /// Ten wrong passwords a minute, for six minutes: the hour's budget ends the seventh minute's first.
    @Test(arguments: TestDatabase.all)
    func passwordGuessesHaveAnHourlyBudget(database: TestDatabase) async throws {
        let test = try await TestServer.make(database) { $0.tokenRequestsPerMinutePerIP = 1_000_000 }
        try await test.run { client in
            _ = try await client.signUp("ada@example.com")
            for _ in 0..<6 {
                for _ in 0..<10 {
                    #expect(try await client.signIn("ada@example.com", password: "wrong-password").goTrueErrorCode == "invalid_credentials")
                }
                #expect(try await client.signIn("ada@example.com", password: "wrong-password").status == .tooManyRequests)
                await test.clock.advance(by: 61)
            }
            let refused = try await client.signIn("ada@example.com", password: "correct-horse")
            #expect(refused.status == .tooManyRequests)
            await test.clock.advance(by: 3600)
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .ok)
        }
    }
}
