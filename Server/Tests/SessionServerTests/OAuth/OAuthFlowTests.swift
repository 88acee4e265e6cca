import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer
import Testing

/// `/authorize`, `/callback` and `grant_type=pkce` on both databases, with the provider stubbed.
struct OAuthFlowTests {
    static let verifier = String(repeating: "v", count: 43)
    /// Computed by the client SDK, so client and server are checked to agree on S256.
    static var challenge: String { PKCE.challenge(for: verifier) }

    static func authorizePath(redirect: String = "myapp://cb", challenge: String = challenge, method: String = "s256") -> String {
        let redirectEncoded = redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "/auth/v1/authorize?provider=strava&redirect_to=\(redirectEncoded)&code_challenge=\(challenge)&code_challenge_method=\(method)"
    }

    /// Runs authorize → callback and returns the app redirect.
    static func runFlow(_ client: any TestClientProtocol, providerQuery: String = "code=provider-code") async throws -> URL {
        let authorize = try await client.send(.get, authorizePath())
        #expect(authorize.status == .found)
        let toProvider = try #require(authorize.headers[.location].flatMap(URL.init(string:)))
        let state = try #require(query(toProvider, "state"))
        let callback = try await client.send(.get, "/auth/v1/callback?\(providerQuery)&state=\(state)")
        #expect(callback.status == .found)
        return try #require(callback.headers[.location].flatMap(URL.init(string:)))
    }

    static func query(_ url: URL, _ name: String) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }

    static func exchange(_ client: any TestClientProtocol, code: String, verifier: String = verifier) async throws -> TestResponse {
        try await client.send(
            .post, "/auth/v1/token?grant_type=pkce", json: #"{"auth_code":"\#(code)","code_verifier":"\#(verifier)"}"#)
    }

    @Test(arguments: TestDatabase.all)
    func signsInOnceAndLinksTheIdentity(database: TestDatabase) async throws {
        let provider = StubProvider(athleteID: 134_815)
        let test = try await TestServer.make(database, configure: provider.configure)
        try await test.run { client in
            let authorize = try await client.send(.get, Self.authorizePath())
            let toProvider = try #require(authorize.headers[.location].flatMap(URL.init(string:)))
            #expect(toProvider.host == "www.strava.com")
            #expect(Self.query(toProvider, "redirect_uri") == "https://auth.example.com/auth/v1/callback")
            #expect(Self.query(toProvider, "scope") == "read,activity:read")
            #expect(authorize.headers[.cacheControl] == "no-store")

            let appURL = try await Self.runFlow(client)
            #expect(appURL.scheme == "myapp")
            let code = try #require(Self.query(appURL, "code"))
            // The provider was called with the code, our secret and the same redirect_uri.
            let form = String(decoding: provider.requests.last?.httpBody ?? Data(), as: UTF8.self)
            #expect(form.contains("code=provider-code"))
            #expect(form.contains("client_secret=csecret"))
            #expect(form.contains("redirect_uri=https%3A%2F%2Fauth.example.com%2Fauth%2Fv1%2Fcallback"))

            let session = try await Self.exchange(client, code: code).decode(TokenResponse.self)
            #expect(session.user!.identities?.map(\.provider) == ["strava"])
            #expect(session.user!.identities?.first?.id == "134815")
            #expect(session.user!.appMetadata["provider"] == "strava")
            #expect(session.user!.email == nil)

            // Once only.
            let replay = try await Self.exchange(client, code: code)
            #expect(replay.status == .notFound)
            #expect(replay.goTrueErrorCode == "flow_state_not_found")

            // The same athlete signs in as the same user.
            let again = try await Self.exchange(client, code: try #require(Self.query(try await Self.runFlow(client), "code")))
            #expect(try again.decode(TokenResponse.self).user!.id == session.user!.id)
        }
    }

    @Test(arguments: TestDatabase.all)
    func expiredStatesAndCodesAreRefused(database: TestDatabase) async throws {
        let provider = StubProvider()
        let test = try await TestServer.make(database, configure: provider.configure)
        try await test.run { client in
            let authorize = try await client.send(.get, Self.authorizePath())
            let toProvider = try #require(authorize.headers[.location].flatMap(URL.init(string:)))
            let state = try #require(Self.query(toProvider, "state"))
            await test.clock.advance(by: 601)
            let late = try await client.send(.get, "/auth/v1/callback?code=c&state=\(state)")
            let lateURL = try #require(late.headers[.location].flatMap(URL.init(string:)))
            #expect(Self.query(lateURL, "error_code") == "bad_oauth_state")
            #expect(Self.query(lateURL, "error_description")?.contains("expired") == true)
            #expect(provider.requests.isEmpty)

            let code = try #require(Self.query(try await Self.runFlow(client), "code"))
            await test.clock.advance(by: 301)
            let expired = try await Self.exchange(client, code: code)
            #expect(expired.status == .badRequest)
            #expect(expired.goTrueErrorCode == "flow_state_expired")
        }
    }

    @Test(arguments: TestDatabase.all)
    func aProviderEmailNeverTakesOverAnAccount(database: TestDatabase) async throws {
        let provider = StubProvider(athleteID: 7, email: "ada@example.com")
        let test = try await TestServer.make(database, configure: provider.configure)
        try await test.run { client in
            let owner = try await client.signUp("ada@example.com")
            let code = try #require(Self.query(try await Self.runFlow(client), "code"))
            let linked = try await Self.exchange(client, code: code).decode(TokenResponse.self)
            #expect(linked.user!.id != owner.user!.id)
            #expect(linked.user!.email == nil)

            // A provider-only user with an email has no password: sign-in fails cleanly.
            provider.answer(with: StubProvider.strava(athleteID: 8, email: "grace@example.com"))
            let code2 = try #require(Self.query(try await Self.runFlow(client), "code"))
            let grace = try await Self.exchange(client, code: code2).decode(TokenResponse.self)
            #expect(grace.user!.email == "grace@example.com")
            let password = try await client.signIn("grace@example.com", password: "anything-at-all")
            #expect(password.status == .badRequest)
            #expect(password.goTrueErrorCode == "invalid_credentials")
        }
    }

    @Test func aWrongVerifierDoesNotBurnTheCode() async throws {
        let provider = StubProvider()
        let test = try await TestServer.make(configure: provider.configure)
        try await test.run { client in
            let code = try #require(Self.query(try await Self.runFlow(client), "code"))
            let wrong = try await Self.exchange(client, code: code, verifier: String(repeating: "w", count: 43))
            #expect(wrong.status == .badRequest)
            #expect(wrong.goTrueErrorCode == "bad_code_verifier")
            let malformed = try await Self.exchange(client, code: code, verifier: "short")
            #expect(malformed.goTrueErrorCode == "bad_code_verifier")
            #expect(try await Self.exchange(client, code: code).status == .ok)
        }
    }

    @Test(arguments: [
        (OAuthHTTPResponse(status: 503, body: Data("down".utf8)), "HTTP 503"),
        (OAuthHTTPResponse(status: 200, body: Data("<html>".utf8)), "not a JSON object"),
        (OAuthHTTPResponse(status: 200, body: Data(#"{"access_token":"x"}"#.utf8)), "athlete.id"),
        (OAuthHTTPResponse(status: 200, body: Data(#"{"athlete":{"id":1.5}}"#.utf8)), "athlete.id"),
    ])
    func providerFailuresEndAtTheApp(answer: OAuthHTTPResponse, mentions: String) async throws {
        let provider = StubProvider()
        provider.answer(with: answer)
        let test = try await TestServer.make(configure: provider.configure)
        try await test.run { client in
            let appURL = try await Self.runFlow(client)
            #expect(Self.query(appURL, "error") == "server_error")
            #expect(Self.query(appURL, "error_description")?.contains(mentions) == true)
            #expect(Self.query(appURL, "code") == nil)
        }
    }

    @Test(arguments: [URLError.Code.timedOut, .cannotConnectToHost])
    func anUnreachableProviderEndsAtTheApp(code: URLError.Code) async throws {
        let provider = StubProvider()
        provider.fail(with: URLError(code))
        let test = try await TestServer.make(configure: provider.configure)
        try await test.run { client in
            let appURL = try await Self.runFlow(client)
            #expect(Self.query(appURL, "error") == "server_error")
            #expect(Self.query(appURL, "error_description")?.contains("could not be reached") == true)
        }
    }

    @Test func deniedConsentAndStateProblems() async throws {
        let provider = StubProvider()
        let test = try await TestServer.make(configure: provider.configure)
        try await test.run { client in
            let denied = try await Self.runFlow(client, providerQuery: "error=access_denied")
            #expect(Self.query(denied, "error") == "access_denied")
            #expect(provider.requests.isEmpty)

            let noCode = try await Self.runFlow(client, providerQuery: "scope=read")
            #expect(Self.query(noCode, "error_code") == "bad_oauth_callback")

            let unknown = try await client.send(.get, "/auth/v1/callback?code=c&state=never-issued")
            #expect(unknown.status == .badRequest)
            #expect(unknown.goTrueErrorCode == "bad_oauth_state")
            let missing = try await client.send(.get, "/auth/v1/callback?code=c")
            #expect(missing.goTrueErrorCode == "bad_oauth_state")
        }
    }

    @Test(arguments: [
        ("/auth/v1/authorize?redirect_to=myapp%3A%2F%2Fcb&code_challenge=\(String(repeating: "c", count: 43))&code_challenge_method=s256", "validation_failed", "provider"),
        ("/auth/v1/authorize?provider=github&redirect_to=myapp%3A%2F%2Fcb", "provider_disabled", "github"),
        (authorizePath(redirect: "https://evil.example/cb"), "validation_failed", "redirect_to"),
        (authorizePath(redirect: "https://app.example.com.evil.example/auth/cb"), "validation_failed", "redirect_to"),
        (authorizePath(challenge: ""), "validation_failed", "code_challenge"),
        (authorizePath(challenge: "short"), "validation_failed", "code_challenge"),
        (authorizePath(method: "plain"), "validation_failed", "code_challenge_method"),
    ])
    func authorizeRefusesBadRequests(path: String, code: String, mentions: String) async throws {
        let test = try await TestServer.make(configure: StubProvider().configure)
        try await test.run { client in
            let response = try await client.send(.get, path)
            #expect(response.status == .badRequest)
            #expect(response.headers[.location] == nil)
            #expect(response.goTrueErrorCode == code)
            #expect(response.text.contains(mentions))
        }
    }

    @Test func settingsListEnabledProviders() async throws {
        let test = try await TestServer.make(configure: StubProvider().configure)
        try await test.run { client in
            let external = try #require(try await client.send(.get, "/auth/v1/settings").jsonObject()["external"] as? [String: Bool])
            #expect(external["strava"] == true)
            #expect(external["email"] == true)
        }
    }
}
