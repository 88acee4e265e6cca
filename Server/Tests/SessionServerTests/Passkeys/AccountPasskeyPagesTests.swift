import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Passkeys on `/account` through the router (issue 39, item 7): the served
/// script, the page's cookie-authenticated calls, and their refusals.
struct AccountPasskeyPagesTests {
    typealias Support = PasskeyTestSupport

    /// A JSON call as the page's script makes it.
    static func call(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, json: String? = nil,
        cookie: String? = nil, csrf: String? = nil, origin: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.accept: "application/json"]
        if json != nil { headers[.contentType] = "application/json" }
        if let cookie { headers[.cookie] = cookie }
        if let csrf { headers[AccountPasskeyPages.csrfHeader] = csrf }
        if let origin { headers[.origin] = origin }
        return try await client.executeRequest(uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    /// Signs the page in with `authenticator`: its cookie and CSRF token.
    static func signInToPage(
        _ client: any TestClientProtocol, _ authenticator: SoftwareAuthenticator, userID: String
    ) async throws -> (cookie: String, csrf: String) {
        let options = try Support.challenge(try await client.send(.post, "/auth/v1/passkeys/authentication/options"))
        let signedIn = try await call(
            client, .post, "/account/passkeys/sign-in",
            json: Support.verifyBody(options.id, authenticator.assertionJSON(challenge: options.challenge, userHandle: userID)))
        #expect(signedIn.status == .ok, "\(signedIn.text)")
        #expect(try signedIn.jsonObject()["redirect"] as? String == "/account")
        let cookie = try #require(WebConsoleTests.cookie(signedIn))
        let page = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
        return (cookie, try #require(WebConsoleTests.csrf(page)))
    }

    /// A fresh assertion, as the page asks before a change.
    static func proof(_ client: any TestClientProtocol, _ authenticator: SoftwareAuthenticator, userID: String) async throws -> String {
        let options = try Support.challenge(try await client.send(.post, "/auth/v1/passkeys/authentication/options"))
        return #""challenge_id":"\#(options.id)","credential":\#(authenticator.assertionJSON(challenge: options.challenge, userHandle: userID))"#
    }

    @Test func signsInWithAPasskeyThenListsRenamesAndRemovesIt() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let ada = try await client.signUp()
            let userID = try #require(ada.user?.id)
            let authenticator = SoftwareAuthenticator()
            #expect(try await Support.register(client, authenticator, bearer: ada.accessToken).status == .ok)
            let (cookie, csrf) = try await Self.signInToPage(client, authenticator, userID: userID)
            let page = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
            #expect(page.text.contains(#"id="passkeys""#) && page.text.contains(#"<script src="/account/passkeys.js" defer></script>"#))
            let list = try await Self.call(client, .get, "/account/passkeys", cookie: cookie, csrf: csrf)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(list.body.readableBytesView)) as? [[String: Any]])
            let id = try #require(items.first?["id"] as? String)
            #expect(items.first?["last_used_at"] is String)

            let renamed = try await Self.call(
                client, .post, "/account/passkeys/\(id)/rename",
                json: "{\(try await Self.proof(client, authenticator, userID: userID)),\"friendly_name\":\"Laptop\"}", cookie: cookie, csrf: csrf)
            #expect(renamed.status == .ok, "\(renamed.text)")
            #expect(try renamed.jsonObject()["friendly_name"] as? String == "Laptop")
            let removed = try await Self.call(
                client, .post, "/account/passkeys/\(id)/remove", json: "{\(try await Self.proof(client, authenticator, userID: userID))}",
                cookie: cookie, csrf: csrf)
            #expect(removed.status == .noContent, "\(removed.text)")
            #expect(try await test.server.store.passkeys(userID: userID).isEmpty)
            // The page's session is a device of the account, signed in by passkey.
            let sessions = try await test.server.store.activeSessions(userID: userID, now: test.clock.now)
            #expect(sessions.count == 2)
        }
    }

    @Test func addsAPasskeyFromThePage() async throws {
        let test = try await Support.server()
        try await test.run { client in
            _ = try await client.signUp()
            let signedIn = try await WebConsoleTests.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")
            let cookie = try #require(WebConsoleTests.cookie(signedIn))
            let page = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
            let csrf = try #require(WebConsoleTests.csrf(page))
            let options = try await Self.call(client, .post, "/account/passkeys/registration/options", json: "{}", cookie: cookie, csrf: csrf)
            let challenge = try Support.challenge(options)
            let added = try await Self.call(
                client, .post, "/account/passkeys/registration/verify",
                json: #"{"challenge_id":"\#(challenge.id)","credential":\#(SoftwareAuthenticator().registrationJSON(challenge: challenge.challenge)),"friendly_name":"Phone"}"#,
                cookie: cookie, csrf: csrf)
            #expect(added.status == .ok, "\(added.text)")
            #expect(try added.jsonObject()["friendly_name"] as? String == "Phone")
        }
    }

    /// A passkey is one factor: the page's second-factor step still comes first
    /// (an AAL1 page session without it was the hole; found at the merge with the MFA page).
    @Test func aPersonWithASecondFactorTypesItsCodeAfterThePasskey() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let ada = try await client.signUp()
            let userID = try #require(ada.user?.id)
            let authenticator = SoftwareAuthenticator()
            #expect(try await Support.register(client, authenticator, bearer: ada.accessToken).status == .ok)
            _ = try await client.enrollAndVerify(ada.accessToken, at: test.clock.now)
            let options = try Support.challenge(try await client.send(.post, "/auth/v1/passkeys/authentication/options"))
            let signedIn = try await Self.call(
                client, .post, "/account/passkeys/sign-in",
                json: Support.verifyBody(options.id, authenticator.assertionJSON(challenge: options.challenge, userHandle: userID)))
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(try signedIn.jsonObject()["redirect"] as? String == "/account/factor-step")
            let cookie = try #require(WebConsoleTests.cookie(signedIn))
            let page = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
            #expect(!page.text.contains(#"id="account-email""#), "the account page opened without the second factor")
            let calls = try await Self.call(client, .get, "/account/passkeys", cookie: cookie, csrf: "any")
            #expect(calls.status == .forbidden)
        }
    }

    @Test func refusesCallsWithoutTheTokenAsAFormOrFromAnotherSite() async throws {
        let test = try await Support.server()
        try await test.run { client in
            _ = try await client.signUp()
            let signedIn = try await WebConsoleTests.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")
            let cookie = try #require(WebConsoleTests.cookie(signedIn))
            let page = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
            let csrf = try #require(WebConsoleTests.csrf(page))
            let path = "/account/passkeys/registration/options"
            for response in [
                try await Self.call(client, .post, path, json: "{}", cookie: cookie),
                try await Self.call(client, .post, path, json: "{}", cookie: cookie, csrf: "forged"),
                try await Self.call(client, .post, path, json: "{}", cookie: cookie, csrf: csrf, origin: "https://evil.example"),
                try await Self.call(client, .post, path, json: "{}", csrf: csrf),
                try await WebConsoleTests.form(client, path, "csrf=\(csrf)", cookie: cookie),
            ] {
                #expect(response.status == .forbidden, "\(response.text)")
                #expect(try response.jsonObject()["error_code"] as? String == "session_not_found")
            }
        }
    }

    @Test func removalNeedsTheAccountsOwnPasskeyOrAFreshPageSignIn() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let ada = try await client.signUp()
            let bob = try await client.signUp("bob@example.com")
            let adaKey = SoftwareAuthenticator()
            let bobKey = SoftwareAuthenticator()
            #expect(try await Support.register(client, adaKey, bearer: ada.accessToken).status == .ok)
            #expect(try await Support.register(client, bobKey, bearer: bob.accessToken).status == .ok)
            let adaID = try #require(ada.user?.id)
            let (cookie, csrf) = try await Self.signInToPage(client, adaKey, userID: adaID)
            let id = try #require(try await test.server.store.passkeys(userID: adaID).first?.id)
            let path = "/account/passkeys/\(id)/remove"

            // Bob's passkey is no proof on Ada's page.
            let theirs = try await Self.call(
                client, .post, path, json: "{\(try await Self.proof(client, bobKey, userID: try #require(bob.user?.id)))}",
                cookie: cookie, csrf: csrf)
            #expect(theirs.status == .badRequest)
            #expect(try theirs.jsonObject()["error_code"] as? String == "webauthn_verification_failed")
            // Without an assertion, the page's sign-in must be fresh.
            await test.clock.advance(by: 3600)
            let stale = try await Self.call(client, .post, path, json: "{}", cookie: cookie, csrf: csrf)
            #expect(stale.status == .badRequest)
            #expect(try stale.jsonObject()["error_code"] as? String == "reauthentication_needed")
            #expect(try await test.server.store.passkeys(userID: adaID).count == 1)
            let mine = try await Self.call(
                client, .post, path, json: "{\(try await Self.proof(client, adaKey, userID: adaID))}", cookie: cookie, csrf: csrf)
            #expect(mine.status == .noContent, "\(mine.text)")
        }
    }

    @Test func servesItsScriptAsAFileTheConsoleNeverRuns() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let script = try await client.executeRequest(uri: "/account/passkeys.js", method: .get, headers: [:], body: nil)
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.text.contains("navigator.credentials.create") && script.text.contains("mediation"))
            let signIn = try await client.executeRequest(uri: "/account", method: .get, headers: [:], body: nil)
            let policy = try #require(signIn.headers[AccountScriptPolicy.header])
            #expect(policy.contains("script-src 'self'") && policy.contains("default-src 'none'"))
            #expect(!policy.contains("script-src 'unsafe-inline'"))
            #expect(signIn.text.contains(#"autocomplete="username webauthn""#))
            // Every script of the page is the served file: no inline script.
            #expect(signIn.text.components(separatedBy: "<script").count - 1 == signIn.text.components(separatedBy: #"<script src="/account/passkeys.js""#).count - 1)
            let console = try await client.executeRequest(uri: "/admin", method: .get, headers: [:], body: nil)
            #expect(console.headers[AccountScriptPolicy.header]?.contains("script-src") == false)
            let enabled = try await Self.call(client, .get, "/account/passkeys/enabled")
            #expect(try enabled.jsonObject()["enabled"] as? Bool == true)
        }
    }

    @Test func staysQuietWhilePasskeysAreOff() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let enabled = try await Self.call(client, .get, "/account/passkeys/enabled")
            #expect(try enabled.jsonObject()["enabled"] as? Bool == false)
            let signIn = try await Self.call(client, .post, "/account/passkeys/sign-in", json: "{}")
            #expect(signIn.status == .notFound)
            #expect(try signIn.jsonObject()["error_code"] as? String == "passkey_disabled")
        }
    }
}
