import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// `/account` and `/admin` through the router: cookies a script or another
/// site cannot use, forms refused without their token, what people typed
/// escaped, and no page that leaks a token.
struct WebConsoleTests {
    static func form(_ client: any TestClientProtocol, _ path: String, _ body: String, cookie: String? = nil, origin: String? = nil)
        async throws -> TestResponse
    {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .userAgent: "<script>alert(1)</script>"]
        if let cookie { headers[.cookie] = cookie }
        if let origin { headers[.origin] = origin }
        return try await client.executeRequest(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    static func cookie(_ response: TestResponse) -> String? {
        response.headers[.setCookie]?.split(separator: ";").first.map(String.init)
    }

    static func csrf(_ page: TestResponse) -> String? {
        let text = page.text
        guard let range = text.range(of: #"name="csrf" value=""#) else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func theAccountPageSignsInWithACookieNoScriptOrOtherSiteCanUse() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            _ = try await client.signUp("ada@example.com")
            let wrong = try await Self.form(client, "/account/sign-in", "email=ada%40example.com&password=nope")
            #expect(wrong.status == .badRequest)
            #expect(wrong.text.contains(#"role="alert""#))
            let signedIn = try await Self.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")
            #expect(signedIn.status == .seeOther)
            let setCookie = try #require(signedIn.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/account"))
            let cookie = try #require(Self.cookie(signedIn))
            let page = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
            #expect(page.text.contains("ada@example.com"))
            // The user agent (a device name the client chose) is escaped, never markup.
            #expect(page.text.contains("&lt;script&gt;") && !page.text.contains("<script>"))
            #expect(page.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("default-src 'none'") == true)
            // Not no-referrer: with it, browsers post the pages' own forms with `Origin: null`,
            // which the Origin check refuses (found by the browser tests, Server/scripts/browser-tests.sh).
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
            #expect(!page.text.contains(#"content="no-referrer""#))
            let csrf = try #require(Self.csrf(page))

            // Without the token, with a wrong one, or from another origin: refused, nothing done.
            for (body, origin) in [("", nil), ("csrf=forged", nil), ("csrf=\(csrf)", "https://evil.example")] as [(String, String?)] {
                let forged = try await Self.form(client, "/account/sign-out-others", body, cookie: cookie, origin: origin)
                #expect(forged.status == .forbidden, "\(body) \(origin ?? "")")
            }
            let real = try await Self.form(client, "/account/sign-out-others", "csrf=\(csrf)", cookie: cookie)
            #expect(real.status == .seeOther)
            // The API sign-up's session was the other device.
            let signedOut = try await Self.form(client, "/account/sign-out", "csrf=\(csrf)", cookie: cookie)
            #expect(signedOut.headers[.setCookie]?.contains("Max-Age=0") == true)
            let after = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
            #expect(after.text.contains(#"id="sign-in""#))
        }
    }

    @Test func theConsoleTakesOnlyTheServiceRoleKey() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let person = try await client.signUp("ada@example.com")
            #expect(try await Self.form(client, "/admin/sign-in", "key=\(person.accessToken)").status == .badRequest)
            #expect(try await Self.form(client, "/admin/sign-in", "key=garbage").status == .badRequest)
            let key = try await test.server.serviceRoleKey(lifetime: 3600)
            let signedIn = try await Self.form(client, "/admin/sign-in", "key=\(key)")
            let cookie = try #require(Self.cookie(signedIn))
            let users = try await client.executeRequest(uri: "/admin?q=ADA", method: .get, headers: [.cookie: cookie], body: nil)
            #expect(users.text.contains("ada@example.com"))
            #expect(!users.text.contains(key))
            // The account cookie is no admin cookie, and the reverse.
            let asAccount = try await client.executeRequest(
                uri: "/account", method: .get, headers: [.cookie: cookie.replacingOccurrences(of: "sk_admin", with: "sk_account")],
                body: nil)
            #expect(asAccount.text.contains(#"id="sign-in""#))
            let id = try #require(person.user?.id)
            let page = try await client.executeRequest(uri: "/admin/users/\(id)", method: .get, headers: [.cookie: cookie], body: nil)
            let csrf = try #require(Self.csrf(page))
            let ban = try await Self.form(client, "/admin/users/\(id)/ban", "csrf=\(csrf)&duration=24h", cookie: cookie)
            #expect(ban.status == .seeOther)
            #expect(try await client.refresh(person.refreshToken).goTrueErrorCode == "user_banned")
            let bad = try await Self.form(client, "/admin/users/\(id)/ban", "csrf=\(csrf)&duration=forever", cookie: cookie)
            #expect(bad.status == .badRequest)
            #expect(try await Self.form(client, "/admin/users/\(id)/delete", "csrf=\(csrf)", cookie: cookie).status == .badRequest)
            #expect(try await Self.form(client, "/admin/users/\(id)/delete", "csrf=\(csrf)&confirm=yes", cookie: cookie).status == .seeOther)
            #expect(try await test.server.store.user(id: id) == nil)
        }
    }
}
