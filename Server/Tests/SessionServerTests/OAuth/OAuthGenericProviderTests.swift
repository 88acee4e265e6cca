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

/// A provider configured by hand: the account comes from its user-info endpoint.
struct OAuthGenericProviderTests {
    static let provider = OAuthProviderConfiguration(
        name: "garmin", authorizeURL: URL(string: "https://connect.example.com/authorize")!,
        tokenURL: URL(string: "https://connect.example.com/token")!, userInfoURL: URL(string: "https://connect.example.com/me")!,
        accountIDField: "user.id", profileField: "user", clientID: "gid", clientSecret: "gsecret", scopes: ["profile"])

    static func configure(_ stub: StubProvider) -> (inout AuthServerConfiguration) -> Void {
        { configuration in
            stub.configure(&configuration)
            configuration.oauthProviders = [provider]
        }
    }

    static func path(_ extra: String = "") -> String {
        "/auth/v1/authorize?provider=garmin&redirect_to=myapp%3A%2F%2Fcb&code_challenge=\(PKCE.challenge(for: OAuthFlowTests.verifier))&code_challenge_method=S256\(extra)"
    }

    @Test func readsTheAccountFromTheUserInfoEndpoint() async throws {
        let stub = StubProvider()
        stub.answer(with: OAuthHTTPResponse(status: 200, body: Data(#"{"access_token":"provider-access","token_type":"bearer"}"#.utf8)))
        stub.answer(
            "https://connect.example.com/me",
            with: OAuthHTTPResponse(status: 200, body: Data(#"{"user":{"id":"g-77","name":"Ada Lovelace","email":"Ada@Example.com","email_verified":"true"}}"#.utf8)))
        let test = try await TestServer.make(configure: Self.configure(stub))
        try await test.run { client in
            let authorize = try await client.send(.get, Self.path())
            let toProvider = try #require(authorize.headers[.location].flatMap(URL.init(string:)))
            #expect(OAuthFlowTests.query(toProvider, "scope") == "profile")
            let state = try #require(OAuthFlowTests.query(toProvider, "state"))
            let callback = try await client.send(.get, "/auth/v1/callback?code=c&state=\(state)")
            let appURL = try #require(callback.headers[.location].flatMap(URL.init(string:)))
            let code = try #require(OAuthFlowTests.query(appURL, "code"))
            let session = try await OAuthFlowTests.exchange(client, code: code).decode(TokenResponse.self)
            #expect(session.user!.identities?.first?.id == "g-77")
            #expect(session.user!.email == "ada@example.com")
            #expect(session.user!.userMetadata["full_name"] == "Ada Lovelace")
            // The user-info call carried the provider's access token.
            #expect(stub.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer provider-access")
        }
    }

    @Test func skipHTTPRedirectAnswersTheURLAsJSON() async throws {
        let test = try await TestServer.make(configure: Self.configure(StubProvider()))
        try await test.run { client in
            let response = try await client.send(.get, Self.path("&skip_http_redirect=true"))
            #expect(response.status == .ok)
            let url = try #require(try response.jsonObject()["url"] as? String)
            #expect(url.hasPrefix("https://connect.example.com/authorize?"))
        }
    }
}
