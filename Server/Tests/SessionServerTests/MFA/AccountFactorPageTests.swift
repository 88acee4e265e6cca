import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// The second factor on `/account` (issue 38, item 9; docs/MFA.md, "The account page").
struct AccountFactorPageTests {
    typealias Page = WebConsoleTests

    static func get(_ client: any TestClientProtocol, _ path: String, cookie: String) async throws -> TestResponse {
        try await client.executeRequest(uri: path, method: .get, headers: [.cookie: cookie], body: nil)
    }

    /// The text between `start` and the next `end` in `page`.
    static func slice(_ page: String, after start: String, until end: String) -> String? {
        guard let range = page.range(of: start) else { return nil }
        return String(page[range.upperBound...].prefix { !end.contains($0) })
    }

    @Test func enrolsVerifiesAndThenSignsInWithTheCodeStep() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            _ = try await client.signUp("ada@example.com")
            let cookie = try #require(Page.cookie(try await Page.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")))
            let account = try await Self.get(client, "/account", cookie: cookie)
            #expect(account.text.contains(#"id="enrol-factor""#))
            let csrf = try #require(Page.csrf(account))
            let enrol = try await Page.form(client, "/account/factors", "csrf=\(csrf)&friendly_name=Ada%27s+phone", cookie: cookie)
            #expect(enrol.status == .ok)
            // The server's own SVG, inline: the page keeps its policy (no image source, no script).
            #expect(enrol.text.contains(#"<div id="factor-qr" class="qr" role="img" aria-label="QR code for your authenticator app"><svg xmlns="#))
            #expect(enrol.headers[HTTPField.Name("Content-Security-Policy")!]?.hasPrefix("default-src 'none';") == true)
            let secret = try #require(Self.slice(enrol.text, after: #"<code id="factor-secret">"#, until: "<").flatMap(Base32.decode))
            let factorID = try #require(Self.slice(enrol.text, after: #"action="/account/factors/"#, until: "/"))
            let factor = EnrolledFactor(id: factorID, secret: secret)
            // The SVG is the one the encoder draws for the factor's URI.
            let configuration = test.server.configuration
            let issuer = configuration.externalURL?.host ?? URL(string: configuration.issuer)?.host ?? "SessionKit"
            let uri = TOTP(secret: secret).uri(issuer: issuer, accountName: "ada@example.com")
            #expect(enrol.text.contains(try QRCode(bytes: Array(uri.utf8)).svg()))

            let wrong = try await Page.form(
                client, "/account/factors/\(factorID)/verify", "csrf=\(csrf)&code=\(factor.wrongCode(at: test.clock.now))", cookie: cookie)
            #expect(wrong.status == .badRequest)
            #expect(wrong.text.contains(#"role="alert""#) && !wrong.text.contains("factor-qr"))
            let verified = try await Page.form(
                client, "/account/factors/\(factorID)/verify", "csrf=\(csrf)&code=\(factor.code(at: test.clock.now))", cookie: cookie)
            #expect(verified.headers[.location] == "/account?done=factor-verified")
            let listed = try await Self.get(client, "/account?done=factor-verified", cookie: cookie)
            #expect(listed.text.contains("Ada&#39;s phone") || listed.text.contains("Ada&#x27;s phone") || listed.text.contains("Ada's phone"))
            #expect(listed.text.contains("on since"))
            _ = try await Page.form(client, "/account/sign-out", "csrf=\(csrf)", cookie: cookie)

            // A password alone now opens the code step, not the page.
            let password = try await Page.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")
            #expect(password.headers[.location] == "/account/factor-step")
            let stepCookie = try #require(Page.cookie(password))
            #expect(try await Self.get(client, "/account", cookie: stepCookie).text.contains(#"id="sign-in""#))
            let step = try await Self.get(client, "/account/factor-step", cookie: stepCookie)
            let stepCSRF = try #require(Page.csrf(step))
            #expect(step.text.contains(#"name="factor_id" value="\#(factorID)""#))
            // The step's browser is not the page's: its forms are refused there.
            let sneaky = try await Page.form(
                client, "/account/password", "csrf=\(stepCSRF)&current_password=correct-horse&password=stolen-and-changed", cookie: stepCookie)
            #expect(sneaky.status == .forbidden)
            await test.clock.advance(by: 30)
            let bad = try await Page.form(
                client, "/account/factor-step", "csrf=\(stepCSRF)&factor_id=\(factorID)&code=\(factor.wrongCode(at: test.clock.now))",
                cookie: stepCookie)
            #expect(bad.status == .badRequest && bad.text.contains(#"id="factor-step""#))
            let good = try await Page.form(
                client, "/account/factor-step", "csrf=\(stepCSRF)&factor_id=\(factorID)&code=\(factor.code(at: test.clock.now))",
                cookie: stepCookie)
            #expect(good.headers[.location] == "/account")
            let pageCookie = try #require(Page.cookie(good))
            let page = try await Self.get(client, "/account", cookie: pageCookie)
            #expect(page.text.contains(#"id="account-email""#))
            // The step's cookie is spent.
            #expect(try await Self.get(client, "/account/factor-step", cookie: stepCookie).headers[.location] == "/account")
        }
    }

    @Test func renamesAndRemovesAFactorAtAAL2() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp("ada@example.com")
            let (factor, _) = try await client.enrollAndVerify(session.accessToken, at: test.clock.now, name: "phone")
            await test.clock.advance(by: 30)
            let password = try await Page.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")
            let stepCookie = try #require(Page.cookie(password))
            let stepCSRF = try #require(Page.csrf(try await Self.get(client, "/account/factor-step", cookie: stepCookie)))
            let good = try await Page.form(
                client, "/account/factor-step", "csrf=\(stepCSRF)&factor_id=\(factor.id)&code=\(factor.code(at: test.clock.now))",
                cookie: stepCookie)
            let cookie = try #require(Page.cookie(good))
            let csrf = try #require(Page.csrf(try await Self.get(client, "/account", cookie: cookie)))
            let renamed = try await Page.form(client, "/account/factors/\(factor.id)/rename", "csrf=\(csrf)&friendly_name=Work+phone", cookie: cookie)
            #expect(renamed.headers[.location] == "/account?done=factor-renamed")
            let userID = try #require(session.user?.id)
            #expect(try await test.server.store.factors(userID: userID).first?.friendlyName == "Work phone")
            let empty = try await Page.form(client, "/account/factors/\(factor.id)/rename", "csrf=\(csrf)&friendly_name=", cookie: cookie)
            #expect(empty.status == .badRequest)
            let removed = try await Page.form(client, "/account/factors/\(factor.id)/remove", "csrf=\(csrf)", cookie: cookie)
            #expect(removed.headers[.location] == "/account?done=factor-removed")
            #expect(try await test.server.store.factors(userID: userID).isEmpty)
            // Without a factor, a password opens the page again.
            let again = try await Page.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")
            #expect(again.headers[.location] == "/account")
        }
    }

    @Test func anAAL1PageSessionOfAnEnrolledUserCannotRenameOrRemove() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp("ada@example.com")
            // Signed in to the page before the factor existed on another device, and
            // the factor verified there by an AAL2 session that the enrolment kept.
            let cookie = try #require(Page.cookie(try await Page.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")))
            let csrf = try #require(Page.csrf(try await Self.get(client, "/account", cookie: cookie)))
            let factor = try await client.enroll(session.accessToken)
            // The factor exists but is unverified: removing it needs no AAL2, renaming neither.
            #expect(try await Page.form(client, "/account/factors/\(factor.id)/rename", "csrf=\(csrf)&friendly_name=x", cookie: cookie).status == .seeOther)
            let (other, _) = try await client.enrollAndVerify(session.accessToken, at: test.clock.now, name: "tablet")
            // The enrolment ended the page's aal1 session: its forms are refused, the factor stays.
            let removal = try await Page.form(client, "/account/factors/\(other.id)/remove", "csrf=\(csrf)", cookie: cookie)
            #expect(removal.status == .forbidden)
            #expect(try await test.server.store.factors(userID: try #require(session.user?.id)).contains { $0.id == other.id })
        }
    }

    /// Attack: guessing on the page's code step spends the account's budget, as the API does.
    @Test func theCodeStepStopsAtTheAccountsGuessBudgetEvenForTheRightCode() async throws {
        let test = try await TestServer.make { $0.emailCodeGuessesPerHourPerAddress = 3 }
        try await test.run { client in
            let session = try await client.signUp("ada@example.com")
            // Verifying at enrolment spent one guess of the three.
            let (factor, _) = try await client.enrollAndVerify(session.accessToken, at: test.clock.now)
            await test.clock.advance(by: 30)
            let password = try await Page.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")
            let stepCookie = try #require(Page.cookie(password))
            let csrf = try #require(Page.csrf(try await Self.get(client, "/account/factor-step", cookie: stepCookie)))
            for _ in 0..<2 {
                let wrong = try await Page.form(
                    client, "/account/factor-step", "csrf=\(csrf)&factor_id=\(factor.id)&code=\(factor.wrongCode(at: test.clock.now))",
                    cookie: stepCookie)
                #expect(wrong.status == .badRequest)
            }
            let right = try await Page.form(
                client, "/account/factor-step", "csrf=\(csrf)&factor_id=\(factor.id)&code=\(factor.code(at: test.clock.now))",
                cookie: stepCookie)
            #expect(right.status == .tooManyRequests)
            #expect(right.headers[.setCookie] == nil)
            #expect(try await Self.get(client, "/account", cookie: stepCookie).text.contains(#"id="sign-in""#))
        }
    }
}
