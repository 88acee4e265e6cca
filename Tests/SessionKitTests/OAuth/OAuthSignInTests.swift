import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// `signInWithOAuth` + `handleOAuthCallback` against the fake: a verified,
/// stored, confirmed session, or a typed error with nothing stored.
struct OAuthSignInTests {
    static let redirect = URL(string: "myapp://oauth-callback")!
    static let oauthEmail = "grace@example.com"

    @Test func signsInWithPKCEAndConfirmsWithTheGateway() async throws {
        let f = await Fixture.make()
        let url = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect, scopes: ["read", "activity:read"])
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(url.path == "/auth/v1/authorize")
        #expect(query.contains(URLQueryItem(name: "provider", value: "strava")))
        #expect(query.contains(URLQueryItem(name: "code_challenge_method", value: "s256")))
        #expect(query.contains(URLQueryItem(name: "redirect_to", value: "myapp://oauth-callback")))
        #expect(query.contains(URLQueryItem(name: "scopes", value: "read activity:read")))

        // The verifier is in the store before the browser opens, and answers the challenge.
        let pending = try #require(try await f.store.load())
        let verifier = try #require(pending.pkceVerifier)
        #expect((43...128).contains(verifier.count))
        #expect(!pending.holdsSession)
        #expect(query.contains(URLQueryItem(name: "code_challenge", value: PKCE.challenge(for: verifier))))

        let callback = try await f.fake.approveOAuth(url, email: Self.oauthEmail)
        let session = try await f.client.handleOAuthCallback(callback)
        #expect(session.user?.email == Self.oauthEmail)
        #expect(f.client.currentState == .signedIn(session))
        #expect(await f.fake.count(.pkceGrant) == 1)
        #expect(await f.fake.count(.me) == 1)
        let stored = try #require(try await f.store.load())
        #expect(stored.refreshToken == session.refreshToken)
        #expect(stored.pkceVerifier == nil)
    }

    /// On the file store a CLI uses: the verifier-only record is not mistaken for a corrupt session.
    @Test func theFlowSurvivesTheAppBeingKilled() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth-\(UUID().uuidString)")
        defer { _ = try? FileManager.default.removeItem(at: folder) }
        let store = FileSessionStore(directory: folder)
        let first = await Fixture.make(store: store)
        let url = try await first.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let callback = try await first.fake.approveOAuth(url, email: Self.oauthEmail)

        // A new process: restore finds no session, keeps the verifier, and the callback completes.
        let second = await Fixture.make(store: store, fake: first.fake)
        #expect(try await second.client.restore() == .signedOut)
        let session = try await second.client.handleOAuthCallback(callback)
        #expect(second.client.currentState == .signedIn(session))
    }

    @Test func aCallbackWithoutAStartedFlowIsRefused() async throws {
        let f = await Fixture.make()
        let other = await Fixture.make(fake: f.fake)
        let url = try await other.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let callback = try await f.fake.approveOAuth(url, email: Self.oauthEmail)
        let error = await #expect(throws: SessionError.oauthFlowUnknown) { try await f.client.handleOAuthCallback(callback) }
        #expect(error?.message.contains("start the sign-in again") == true)
        #expect(try await f.store.load() == nil)
        #expect(await f.fake.count(.pkceGrant) == 0)
    }

    @Test func aReusedCodeLeavesTheSessionAlone() async throws {
        let f = await Fixture.make()
        let url = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let callback = try await f.fake.approveOAuth(url, email: Self.oauthEmail)
        let session = try await f.client.handleOAuthCallback(callback)
        // The verifier is gone with the first use: the replay is refused before any request.
        await #expect(throws: SessionError.oauthFlowUnknown) { try await f.client.handleOAuthCallback(callback) }
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
    }

    @Test func aDeniedConsentKeepsTheExistingSession() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        let url = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        // Starting the flow kept the session in the record, with the verifier beside it.
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
        let callback = try await f.fake.denyOAuth(url)
        await #expect(throws: SessionError.oauthDenied) { try await f.client.handleOAuthCallback(callback) }
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
    }

    @Test func aWrongVerifierIsTyped() async throws {
        let f = await Fixture.make()
        _ = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        // A code minted for another attempt (another challenge).
        let other = await Fixture.make(fake: f.fake)
        let otherURL = try await other.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let callback = try await f.fake.approveOAuth(otherURL, email: Self.oauthEmail)
        await #expect(throws: SessionError.oauthVerifierMismatch) { try await f.client.handleOAuthCallback(callback) }
        #expect(try await f.store.load()?.holdsSession == false)
    }

    /// The code is spent once exchanged: a confirmation that fails for a
    /// moment must not lose the tokens (the seed apps' own failure).
    @Test(arguments: [FakeFault.status(500, body: Data(), headers: [:]), .drop(.timedOut), .drop(.networkConnectionLost)])
    func aTransientConfirmationFailureKeepsTheExchangedSession(fault: FakeFault) async throws {
        let f = await Fixture.make()
        let url = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let callback = try await f.fake.approveOAuth(url, email: Self.oauthEmail)
        await f.fake.inject(fault, on: .me)
        let session = try await f.client.handleOAuthCallback(callback)
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
        #expect(f.client.currentState.isSignedIn)
        #expect(await f.fake.isFamilyActive(refreshToken: session.refreshToken))
        // The confirmation is retried behind the app's back and succeeds.
        #expect(await f.clock.waitForSleepers(count: 1))
        await f.clock.advance(by: 2)
        #expect(await eventually { await f.fake.count(.me) >= 2 })
        #expect(await f.client.currentSession?.refreshToken == session.refreshToken)
    }

    @Test func aRefusedConfirmationStoresNothing() async throws {
        let f = await Fixture.make()
        let url = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let callback = try await f.fake.approveOAuth(url, email: Self.oauthEmail)
        await f.fake.inject(.gatewayError(status: 401, code: .sessionExpired), on: .me, times: 2)
        await #expect(throws: SessionError.self) { try await f.client.handleOAuthCallback(callback) }
        #expect(try await f.store.load()?.holdsSession != true)
        #expect(await f.client.currentSession == nil)
    }

    /// Hosted Supabase has no gateway: a 404 from `/v1/auth/me` falls back to `/auth/v1/user`.
    @Test func confirmsWithGoTrueWhenThereIsNoGateway() async throws {
        let f = await Fixture.make()
        let url = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let callback = try await f.fake.approveOAuth(url, email: Self.oauthEmail)
        await f.fake.inject(.status(404, body: Data(#"{"code":404,"msg":"Not found"}"#.utf8), headers: [:]), on: .me)
        let session = try await f.client.handleOAuthCallback(callback)
        #expect(await f.fake.count(.user) == 1)
        #expect(session.user?.email == Self.oauthEmail)
    }

    /// A token-style callback for the sign-in started here, with its `state`.
    static func tokenCallback(_ issued: TokenResponse, userID: String, state: String?) throws -> URL {
        let statePart = state.map { "&state=\($0)" } ?? ""
        return try #require(
            URL(string: "myapp://cb#access_token=\(issued.accessToken)&refresh_token=\(issued.refreshToken)&expires_in=3600&user_id=\(userID)\(statePart)"))
    }

    @Test func acceptsTokensReturnedDirectlyForTheSignInStartedHere() async throws {
        let f = await Fixture.make()
        _ = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let state = try #require(try await f.store.load()?.oauthState)
        let issued = try #require(await f.fake.issueSession(email: Fixture.email))
        let userID = try #require(issued.user?.id)
        let session = try await f.client.handleOAuthCallback(Self.tokenCallback(issued, userID: userID, state: state))
        #expect(session.user?.id == userID)
        #expect(try await f.store.load()?.refreshToken == issued.refreshToken)
    }

    @Test func refusesTokensForAnotherUser() async throws {
        let f = await Fixture.make()
        _ = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let state = try #require(try await f.store.load()?.oauthState)
        let issued = try #require(await f.fake.issueSession(email: Fixture.email))
        await #expect(throws: SessionError.oauthCallbackInvalid) {
            try await f.client.handleOAuthCallback(Self.tokenCallback(issued, userID: "someone-else", state: state))
        }
        #expect(try await f.store.load()?.holdsSession != true)
    }

    /// Any web page can open `myapp://cb#access_token=…`: without a sign-in
    /// started here, tokens (here: a real session of the attacker's account) are refused.
    @Test func refusesTokensWhenNoSignInWasStartedHere() async throws {
        let f = await Fixture.make()
        await f.fake.createUser(email: "mallory@example.com", password: "mallory-123")
        let issued = try #require(await f.fake.issueSession(email: "mallory@example.com"))
        let userID = try #require(issued.user?.id)
        await #expect(throws: SessionError.oauthFlowUnknown) {
            try await f.client.handleOAuthCallback(Self.tokenCallback(issued, userID: userID, state: nil))
        }
        #expect(try await f.store.load() == nil)
        #expect(await f.client.currentSession == nil)
    }

    @Test(arguments: [nil, "forged-state"])
    func refusesTokensWithoutTheMatchingState(state: String?) async throws {
        let f = await Fixture.make()
        _ = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        await f.fake.createUser(email: "mallory@example.com", password: "mallory-123")
        let issued = try #require(await f.fake.issueSession(email: "mallory@example.com"))
        let userID = try #require(issued.user?.id)
        await #expect(throws: SessionError.oauthCallbackInvalid) {
            try await f.client.handleOAuthCallback(Self.tokenCallback(issued, userID: userID, state: state))
        }
        #expect(try await f.store.load()?.holdsSession != true)
    }

    @Test func aCallbackMissingTokensNamesTheField() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        let url = try #require(URL(string: "myapp://cb#access_token=abc&expires_in=3600&user_id=u1"))
        let error = await #expect(throws: SessionError.oauthCallbackInvalid) { try await f.client.handleOAuthCallback(url) }
        #expect(error?.message.contains("refresh_token") == true)
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
    }

    /// A verifier that cannot be saved means no URL: a flow that could not finish is never started.
    @Test func aVerifierThatCannotBeSavedStartsNothing() async throws {
        let flaky = FlakySessionStore(wrapping: InMemorySessionStore())
        let f = await Fixture.make(store: flaky)
        await flaky.failNextSaves(1)
        await #expect(throws: SessionError.persistenceFailed) {
            try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        }
        #expect(try await flaky.load() == nil)
    }

    @Test func aStoredSessionKeepsItsPlaceBesideTheVerifier() async throws {
        // A CLI that did not restore: the stored session must not be overwritten by the pending record.
        let store = InMemorySessionStore()
        let first = await Fixture.make(store: store)
        let session = try await first.signIn()
        let cli = await Fixture.make(store: store, fake: first.fake)
        _ = try await cli.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let record = try #require(try await store.load())
        #expect(record.refreshToken == session.refreshToken)
        #expect(record.pkceVerifier != nil)
    }

    @Test func aCustomBackendWithoutOAuthSaysSo() async throws {
        let clock = ManualClock()
        let client = SessionClient(
            configuration: SessionClientConfiguration(
                backend: .custom(refreshURL: URL(string: "https://x.test/refresh")!, meURL: URL(string: "https://x.test/me")!),
                store: InMemorySessionStore(), clock: clock, transport: FakeAuthBackend(clock: clock)))
        await #expect(throws: SessionError.unsupported) {
            try await client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        }
    }
}
