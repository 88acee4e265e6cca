import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitTesting
import Testing

/// `/account`'s provider button over loopback (issue 30): the page → fake
/// Strava → `/auth/v1/callback` → `/account/oauth/callback`, where the
/// verifier the browser kept in its cookie redeems the one-time code.
struct AccountPageOAuthTests {
    @Test func theProviderButtonSignsInToTheAccountPageOnlyWithTheBrowsersVerifier() async throws {
        try await OAuthHarness.run { h in
            let start = h.serverURL.appendingPathComponent("account/oauth/strava")
            let first = try await h.browser.get(start)
            #expect(first.status == 302)
            let setCookie = try #require(first.setCookie)
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("Max-Age="))
            let verifierCookie = try #require(setCookie.split(separator: ";").first.map(String.init))
            // No allow-list entry names /account: the server built the redirect itself.
            let toStrava = try #require(first.location)
            #expect(toStrava.path == "/oauth/authorize")
            let hops = try await h.browser.follow(toStrava) { $0.path == "/account/oauth/callback" }
            let back = try #require(hops.last?.location)
            #expect(back.path == "/account/oauth/callback")
            #expect(OAuthHarness.query(back, "code") != nil)

            // Without the verifier (another browser): refused, and the code stays unspent.
            let elsewhere = try await h.browser.get(back)
            #expect(elsewhere.status == 400)
            #expect(elsewhere.body.contains("started elsewhere"))
            // A verifier that is not this flow's: refused too.
            let forged = try await h.browser.get(back, cookie: "sk_account_pkce=" + String(repeating: "A", count: 43))
            #expect(forged.status == 400)

            let signedIn = try await h.browser.get(back, cookie: verifierCookie)
            #expect(signedIn.status == 303, "\(signedIn.body.prefix(300))")
            #expect(signedIn.location?.path == "/account")
            let pageCookie = try #require(signedIn.setCookie?.split(separator: ";").first.map(String.init))
            #expect(pageCookie.hasPrefix("sk_account="))
            let page = try await h.browser.get(h.serverURL.appendingPathComponent("account"), cookie: pageCookie)
            #expect(page.body.contains(#"data-method="provider""#))
            #expect(page.body.contains("With Strava"))
            #expect(!page.body.contains(#"data-method="password""#))
            // Strava gives no email: no code can be mailed, so the page offers none.
            #expect(!page.body.contains(#"id="send-code""#))
            // The code is single use: GoTrue's flow_state_not_found status, the sign-in page, no session cookie.
            let replay = try await h.browser.get(back, cookie: verifierCookie)
            #expect(replay.status == 404)
            #expect(replay.body.contains(#"id="sign-in""#))
            #expect(!(replay.setCookie ?? "").contains("sk_account="), "only the verifier cookie is cleared")
        }
    }
}
