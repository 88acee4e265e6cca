import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Issue 40, item 4: `/account` offers the email change (form, codes,
/// confirm), with the page's CSRF token and presence proof.
struct AccountEmailChangePageTests {
    typealias Web = WebConsoleTests
    typealias Page = AccountPageWithoutPasswordTests

    @Test func thePageChangesTheAddressWithBothCodes() async throws {
        try await EmailChangeTestServer.run(configure: { $0.emailsPerMinutePerAddress = 5 }) { test, client, mail in
            let app = try await client.signUp("ada@example.com")
            let cookie = try await Page.signInByCode(client, mail)
            let page = try await Page.page(client, cookie)
            #expect(page.text.contains(#"id="change-email""#))
            let csrf = try #require(Web.csrf(page))

            // Without the CSRF token: refused before anything else, nothing mailed.
            let forged = try await Web.form(client, "/account/email", "email=new%40example.com", cookie: cookie)
            #expect(forged.status == .forbidden)
            // Past the window, the current password is needed, as for a new password.
            await test.clock.advance(by: 601)
            let bare = try await Web.form(client, "/account/email", "csrf=\(csrf)&email=new%40example.com", cookie: cookie)
            #expect(bare.status == .badRequest)
            let asked = try await Web.form(
                client, "/account/email", "csrf=\(csrf)&email=new%40example.com&current_password=correct-horse", cookie: cookie)
            #expect(asked.status == .seeOther, "\(asked.text)")
            #expect(asked.headers[.location] == "/account?done=email-sent")
            let mails = try await mail.next(2)
            let pending = try await Page.page(client, cookie)
            #expect(pending.text.contains(#"id="confirm-email""#))
            #expect(pending.text.contains("new@example.com"))

            let newCode = try #require(mails["new@example.com"]?.code)
            let currentCode = try #require(mails["ada@example.com"]?.code)
            let one = try await Web.form(client, "/account/email/confirm", "csrf=\(csrf)&new_code=\(newCode)", cookie: cookie)
            #expect(one.headers[.location] == "/account?done=email-one")
            #expect(try await test.server.store.user(email: "ada@example.com") != nil)
            let both = try await Web.form(
                client, "/account/email/confirm", "csrf=\(csrf)&current_code=\(currentCode)", cookie: cookie)
            #expect(both.headers[.location] == "/account?done=email", "\(both.text)")
            #expect(try await test.server.store.user(email: "new@example.com")?.id == app.user?.id)
            // The app's session goes on and reads the new address.
            let me = try await client.send(.get, "/auth/v1/user", bearer: app.accessToken).decode(SessionUser.self)
            #expect(me.email == "new@example.com")
        }
    }
}
