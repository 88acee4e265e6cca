import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 37, item 2 (an attack): `current_password` checks counted nothing,
/// so anyone at an unlocked browser could guess the password without limit
/// (`/account/*`), 600 a minute (`DELETE /v1/auth/me`) or 10 a minute
/// (`PUT /auth/v1/user`), and keep the bcrypt slots busy. Every check now
/// spends the account's sign-in budget (10 a minute, 60 an hour).
struct PasswordCheckBudgetTests {
    typealias Web = WebConsoleTests

    /// 105 fast wrong guesses spread over the page, `PUT /user` and
    /// `DELETE /v1/auth/me`: at most the sign-in budget is judged, the rest is
    /// 429 with `Retry-After`, and the budget is the one sign-in spends.
    @Test(arguments: TestDatabase.all)
    func wrongCurrentPasswordsAcrossEverySurfaceShareTheSignInBudget(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let app = try await client.signUp("ada@example.com")
            let signedIn = try await Web.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")
            let cookie = try #require(Web.cookie(signedIn))
            let page = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
            let csrf = try #require(Web.csrf(page))
            // The page's own sign-in spent one of the minute's ten: start the guesses on a fresh minute.
            await test.clock.advance(by: 61)

            var judged = 0
            var limited: [TestResponse] = []
            for guess in 0..<105 {
                let wrong = "wrong-guess-\(guess)"
                let response: TestResponse =
                    switch guess % 3 {
                    case 0:
                        try await Web.form(
                            client, "/account/password", "csrf=\(csrf)&current_password=\(wrong)&password=new-password-9",
                            cookie: cookie)
                    case 1:
                        try await client.send(
                            .put, "/auth/v1/user", json: #"{"password":"new-password-9","current_password":"\#(wrong)"}"#,
                            bearer: app.accessToken)
                    default:
                        try await client.send(
                            .delete, "/v1/auth/me", json: #"{"current_password":"\#(wrong)"}"#, bearer: app.accessToken)
                    }
                if response.status == .tooManyRequests { limited.append(response) } else { judged += 1 }
            }
            #expect(judged <= 10, "judged \(judged) guesses")
            #expect(limited.allSatisfy { $0.headers[.retryAfter].flatMap(Int.init) ?? 0 > 0 })
            // The page says it in its own words.
            #expect(limited.contains { $0.text.contains("Too many passwords were tried for this account") })
            // One budget: sign-in with the right password waits too.
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .tooManyRequests)
            let actions = try await test.server.store.auditLog(page: 1, perPage: 50).entries.map(\.action)
            #expect(actions.filter { $0 == "password_checks_limited" }.count == 1)
            #expect(test.server.metrics.render().contains("auth_password_checks_limited_total"))
            // Nothing was changed or deleted by a guess.
            #expect(try await test.server.store.user(email: "ada@example.com") != nil)
            await test.clock.advance(by: 61)
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .ok)
        }
    }

    /// The hour's budget holds across minutes: 60 checks an hour, then 429 until the hour ends.
    @Test func theHourBudgetHoldsForPasswordChecks() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let app = try await client.signUp("ada@example.com")
            var judged = 0
            for minute in 0..<7 {
                for guess in 0..<10 {
                    let response = try await client.send(
                        .delete, "/v1/auth/me", json: #"{"current_password":"wrong-\#(minute)-\#(guess)"}"#, bearer: app.accessToken)
                    if response.status != .tooManyRequests { judged += 1 }
                }
                await test.clock.advance(by: 61)
            }
            #expect(judged == 60)
        }
    }
}
