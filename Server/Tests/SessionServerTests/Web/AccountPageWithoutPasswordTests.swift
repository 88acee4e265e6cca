import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// `/account` for people without a password (issue 30): sign-in by emailed
/// code, "forgot your password?" through the recovery code, and sensitive
/// actions proved by a mailed code once the page's sign-in is old.
struct AccountPageWithoutPasswordTests {
    typealias Web = WebConsoleTests

    static func page(_ client: any TestClientProtocol, _ cookie: String) async throws -> TestResponse {
        try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
    }

    /// Signs in on the page with a mailed code; returns the page's cookie.
    static func signInByCode(
        _ client: any TestClientProtocol, _ mail: RecordingMailTransport, _ email: String = "ada%40example.com"
    ) async throws -> String {
        let sent = try await Web.form(client, "/account/code", "email=\(email)")
        #expect(sent.status == .ok)
        #expect(sent.text.contains(#"id="code-verify""#))
        let code = try #require(try await mail.next().code)
        let signedIn = try await Web.form(client, "/account/code/verify", "email=\(email)&code=\(code.prefix(3))+\(code.dropFirst(3))")
        #expect(signedIn.status == .seeOther, "\(signedIn.text)")
        return try #require(Web.cookie(signedIn))
    }

    @Test(arguments: TestDatabase.all)
    func aCodeOnlyPersonSignsInAndDeletesTheAccountAfterAMailedCode(database: TestDatabase) async throws {
        try await EmailTestServer.run(database, configure: { $0.emailsPerMinutePerAddress = 5 }) { test, client, mail in
            // An account made by an API sign-in code: no password.
            _ = try await client.requestCode("ada@example.com")
            let first = try #require(try await mail.next().code)
            let app = try await client.verify(type: "email", email: "ada@example.com", code: first).decode(TokenResponse.self)

            let cookie = try await Self.signInByCode(client, mail)
            let page = try await Self.page(client, cookie)
            #expect(page.text.contains(#"data-method="email-code""#))
            #expect(!page.text.contains(#"data-method="password""#))
            #expect(page.text.contains(#"name="nonce""#) && !page.text.contains(#"name="current_password""#))
            #expect(page.text.contains("Set a password"))
            #expect(page.text.matches(of: /data-session=/).count == 2, "the app's session and this browser's")
            let csrf = try #require(Web.csrf(page))

            await test.clock.advance(by: 601)
            let bare = try await Web.form(client, "/account/delete", "csrf=\(csrf)&confirm=yes", cookie: cookie)
            #expect(bare.status == .badRequest)
            #expect(try await test.server.store.user(email: "ada@example.com") != nil)
            // A forged post carrying a code but no CSRF token is refused before anything else.
            let forged = try await Web.form(client, "/account/delete", "confirm=yes&nonce=123456", cookie: cookie)
            #expect(forged.status == .forbidden)

            let asked = try await Web.form(client, "/account/reauthenticate", "csrf=\(csrf)", cookie: cookie)
            #expect(asked.status == .seeOther)
            #expect(asked.headers[.location] == "/account?done=code")
            let message = try await mail.next()
            #expect(message.subject.hasPrefix("Confirm it is you"))
            let nonce = try #require(message.code)
            let deleted = try await Web.form(client, "/account/delete", "csrf=\(csrf)&confirm=yes&nonce=\(nonce)", cookie: cookie)
            #expect(deleted.status == .ok, "\(deleted.text)")
            #expect(deleted.text.contains("Account deleted"))
            #expect(try await test.server.store.user(email: "ada@example.com") == nil)
            #expect(try await client.refresh(app.refreshToken).status != .ok)
        }
    }

    @Test func aCodeOnlyPersonSetsAPasswordAfterACodeAndSignsOutOthers() async throws {
        try await EmailTestServer.run(configure: { $0.emailsPerMinutePerAddress = 5 }) { test, client, mail in
            _ = try await client.requestCode("ada@example.com")
            let first = try #require(try await mail.next().code)
            let app = try await client.verify(type: "email", email: "ada@example.com", code: first).decode(TokenResponse.self)
            let cookie = try await Self.signInByCode(client, mail)
            let csrf = try #require(Web.csrf(try await Self.page(client, cookie)))
            await test.clock.advance(by: 601)
            // Signing every other device out needs proof too, now.
            let bare = try await Web.form(client, "/account/sign-out-others", "csrf=\(csrf)", cookie: cookie)
            #expect(bare.status == .badRequest)
            _ = try await Web.form(client, "/account/reauthenticate", "csrf=\(csrf)", cookie: cookie)
            let nonce = try #require(try await mail.next().code)
            let set = try await Web.form(
                client, "/account/password", "csrf=\(csrf)&nonce=\(nonce)&password=first-password", cookie: cookie)
            #expect(set.status == .seeOther, "\(set.text)")
            #expect(try await client.refresh(app.refreshToken).status != .ok, "a new password signs out the app")
            #expect(try await client.signIn("ada@example.com", password: "first-password").status == .ok)
            let page = try await Self.page(client, cookie)
            #expect(page.text.contains(#"data-method="password""#))
            #expect(page.text.contains(#"name="current_password""#))
            let others = try await Web.form(
                client, "/account/sign-out-others", "csrf=\(csrf)&current_password=first-password", cookie: cookie)
            #expect(others.status == .seeOther)
        }
    }

    @Test func forgotPasswordSetsANewOneThroughTheRecoveryCode() async throws {
        try await EmailTestServer.run { _, client, mail in
            _ = try await client.signUp("ada@example.com", password: "old-password-1")
            let sent = try await Web.form(client, "/account/recover", "email=ada%40example.com")
            #expect(sent.text.contains(#"id="recover-verify""#))
            let code = try #require(try await mail.next().code)
            // Too short: refused before the code is spent.
            let short = try await Web.form(client, "/account/recover/verify", "email=ada%40example.com&code=\(code)&password=short")
            #expect(short.status == .unprocessableContent)
            let done = try await Web.form(
                client, "/account/recover/verify", "email=ada%40example.com&code=\(code)&password=new-password-2")
            #expect(done.status == .seeOther, "\(done.text)")
            #expect(done.headers[.location] == "/account?done=password")
            #expect(try await client.signIn("ada@example.com", password: "new-password-2").status == .ok)
            // A wrong code on the sign-in form is the same one answer as the API's.
            let wrong = try await Web.form(client, "/account/code/verify", "email=ada%40example.com&code=000000")
            #expect(wrong.status == .forbidden)
            #expect(wrong.text.contains(#"id="code-verify""#))
        }
    }

    @Test func theSignInFormsRefuseAnotherOrigin() async throws {
        try await EmailTestServer.run { _, client, _ in
            for path in ["/account/code", "/account/code/verify", "/account/recover", "/account/recover/verify"] {
                let forged = try await Web.form(client, path, "email=ada%40example.com&code=123456", origin: "https://evil.example")
                #expect(forged.status == .forbidden, "\(path)")
            }
        }
    }
}
