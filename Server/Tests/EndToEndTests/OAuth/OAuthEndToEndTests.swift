import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitTesting
import Testing

/// The whole Strava-style flow over loopback: SessionKit → auth server →
/// fake Strava → auth server → app redirect → PKCE exchange → confirmed session.
struct OAuthEndToEndTests {
    static let redirect = URL(string: OAuthHarness.appRedirect)!

    @Test func signsInWithStrava() async throws {
        try await OAuthHarness.run { h in
            let url = try await h.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
            let (callback, hops) = try await h.openInBrowser(url)
            #expect(hops.map(\.status) == [302, 302, 302])
            // Hop 1: to Strava with our client id, Strava's comma scopes, a state and our callback.
            let toStrava = try #require(hops.first?.location)
            #expect(toStrava.path == "/oauth/authorize")
            #expect(OAuthHarness.query(toStrava, "client_id") == FakeStrava.clientID)
            #expect(OAuthHarness.query(toStrava, "scope") == "read,activity:read")
            #expect(OAuthHarness.query(toStrava, "approval_prompt") == "auto")
            #expect(OAuthHarness.query(toStrava, "redirect_uri") == h.serverURL.absoluteString + "/auth/v1/callback")
            #expect((OAuthHarness.query(toStrava, "state")?.count ?? 0) >= 43)

            let appURL = try #require(callback)
            #expect(appURL.scheme == "myapp")
            let code = try #require(OAuthHarness.query(appURL, "code"))
            let session = try await h.client.handleOAuthCallback(appURL)

            let user = try #require(session.user)
            let identity = try #require(user.identities?.first { $0.provider == "strava" })
            #expect(identity.id == String(FakeStrava.athleteID))
            #expect(user.userMetadata["full_name"] == .string("Marianne Teutenberg"))
            #expect(user.email == nil)
            #expect(h.client.currentState == .signedIn(session))
            #expect(try await h.store.load()?.refreshToken == session.refreshToken)
            #expect(try await h.client.me().id == user.id)

            // Code replay: the server refuses it; the client refuses it before asking.
            let replay = try await h.exchange(code: code, verifier: PKCE.makeVerifier())
            #expect(replay.status == 404)
            #expect(replay.errorCode == "flow_state_not_found")
            await #expect(throws: SessionError.oauthFlowUnknown) { try await h.client.handleOAuthCallback(appURL) }

            // State replay: the provider's redirect to our callback, sent again.
            let serverCallback = try #require(hops[1].location)
            let replayed = try await h.browser.get(serverCallback)
            #expect(replayed.status == 302)
            #expect(OAuthHarness.query(replayed.location, "error_code") == "bad_oauth_state")
            #expect(OAuthHarness.query(replayed.location, "code") == nil)
            await #expect(throws: SessionError.oauthFailed) {
                try await h.client.handleOAuthCallback(try #require(replayed.location))
            }
            #expect(h.client.currentState == .signedIn(session))
            #expect(try await h.store.load()?.refreshToken == session.refreshToken)

            // The same athlete again: the same user, found through its identity.
            let again = try await h.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
            let second = try await h.client.handleOAuthCallback(try #require(try await h.openInBrowser(again).callback))
            #expect(second.user?.id == user.id)
            #expect(second.refreshToken != session.refreshToken)
        }
    }

    @Test func aDeniedConsentEndsAtTheAppWithATypedError() async throws {
        try await OAuthHarness.run { h in
            await h.strava.set(decision: .deny)
            let url = try await h.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
            let appURL = try #require(try await h.openInBrowser(url).callback)
            #expect(OAuthHarness.query(appURL, "error") == "access_denied")
            await #expect(throws: SessionError.oauthDenied) { try await h.client.handleOAuthCallback(appURL) }
            #expect(try await h.store.load()?.holdsSession == false)
            #expect(await h.strava.tokenRequests == 0)
        }
    }

    @Test(arguments: [FakeStrava.TokenAnswer.serverError, .garbage, .noAthlete])
    func aFailingProviderEndsAtTheAppNeverA500(answer: FakeStrava.TokenAnswer) async throws {
        try await OAuthHarness.run { h in
            await h.strava.set(tokenAnswer: answer)
            let url = try await h.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
            let (callback, hops) = try await h.openInBrowser(url)
            #expect(hops.map(\.status) == [302, 302, 302])
            let appURL = try #require(callback)
            #expect(OAuthHarness.query(appURL, "error") == "server_error")
            #expect(OAuthHarness.query(appURL, "error_description")?.contains("exchange") == true)
            let error = await #expect(throws: SessionError.oauthFailed) { try await h.client.handleOAuthCallback(appURL) }
            #expect(error?.underlying?.contains("server_error") == true)
            #expect(try await h.store.load()?.holdsSession == false)
        }
    }

    @Test func aWrongVerifierIsRefusedAndTheRightOneStillWorks() async throws {
        try await OAuthHarness.run { h in
            let url = try await h.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
            let appURL = try #require(try await h.openInBrowser(url).callback)
            let code = try #require(OAuthHarness.query(appURL, "code"))
            let wrong = try await h.exchange(code: code, verifier: PKCE.makeVerifier())
            #expect(wrong.status == 400)
            #expect(wrong.errorCode == "bad_code_verifier")
            let session = try await h.client.handleOAuthCallback(appURL)
            #expect(h.client.currentState == .signedIn(session))
        }
    }

    @Test func aRedirectNotOnTheAllowListIsRefusedBeforeTheProvider() async throws {
        try await OAuthHarness.run { h in
            let url = try await h.client.signInWithOAuth(
                provider: "strava", redirectTo: URL(string: "https://evil.example/oauth-callback")!)
            let answer = try await h.browser.get(url)
            #expect(answer.status == 400)
            #expect(answer.location == nil)
            #expect(answer.body.contains("redirect_to"))
            #expect(await h.strava.lastAuthorize.isEmpty)
        }
    }

    @Test func aCallbackMissingTokensNamesTheFieldAndStoresNothing() async throws {
        try await OAuthHarness.run { h in
            _ = try await h.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
            let noCode = try #require(URL(string: "myapp://oauth-callback?state=abc"))
            let error = await #expect(throws: SessionError.oauthCallbackInvalid) { try await h.client.handleOAuthCallback(noCode) }
            #expect(error?.message.contains("code") == true)
            let partial = try #require(URL(string: "myapp://oauth-callback#access_token=abc&expires_in=3600&user_id=u1"))
            let partialError = await #expect(throws: SessionError.oauthCallbackInvalid) {
                try await h.client.handleOAuthCallback(partial)
            }
            #expect(partialError?.message.contains("refresh_token") == true)
            #expect(try await h.store.load()?.holdsSession == false)
            #expect(h.client.currentState != .restoring)
        }
    }

    /// What `sessionctl login --provider strava` will do: a loopback redirect on any port.
    @Test func aLoopbackRedirectWorksForCLIs() async throws {
        try await OAuthHarness.run { h in
            let redirect = try #require(URL(string: "http://127.0.0.1:54321/callback"))
            let url = try await h.client.signInWithOAuth(provider: "strava", redirectTo: redirect)
            let appURL = try #require(try await h.openInBrowser(url).callback)
            #expect(appURL.port == 54321)
            let session = try await h.client.handleOAuthCallback(appURL)
            #expect(h.client.currentState == .signedIn(session))
        }
    }

    /// Codes, states, verifiers and tokens never reach a log line, client or server.
    @Test func noSecretReachesTheLogs() async throws {
        try await OAuthHarness.run { h in
            let url = try await h.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
            let verifier = try #require(try await h.store.load()?.pkceVerifier)
            let (callback, hops) = try await h.openInBrowser(url)
            let appURL = try #require(callback)
            let session = try await h.client.handleOAuthCallback(appURL)
            let secrets = [
                try #require(OAuthHarness.query(appURL, "code")), try #require(OAuthHarness.query(hops.first?.location, "state")),
                verifier, session.accessToken, session.refreshToken, FakeStrava.clientSecret, "strava-access", "strava-refresh",
            ]
            let lines = h.logs.lines
            #expect(!lines.isEmpty)
            for secret in secrets {
                #expect(!lines.contains { $0.contains(secret) }, "a log line holds a secret starting \(secret.prefix(6))")
            }
        }
    }
}
