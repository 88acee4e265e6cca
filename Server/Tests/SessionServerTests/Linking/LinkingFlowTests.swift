import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Issue 40, item 3: `GET /user/identities/authorize` starts a provider flow
/// whose callback links the identity to the signed-in user, and whose code
/// answers for the session that started it (docs/ACCOUNTS.md, "Linked identities (server)").
struct LinkingFlowTests {
    @Test(arguments: TestDatabase.all)
    func aProviderLinksToTheSignedInUserInTheSameSession(database: TestDatabase) async throws {
        let test = try await Linking.server(database)
        try await test.run { client in
            let session = try await client.signUp()
            let sessionsBefore = try await Linking.count("sessions", in: test)
            let appURL = try await Linking.link(client, bearer: session.accessToken)
            #expect(appURL.scheme == "myapp")
            #expect(OAuthFlowTests.query(appURL, "error") == nil)
            let code = try #require(OAuthFlowTests.query(appURL, "code"))

            await test.clock.advance(by: 2)
            let linked = try await OAuthFlowTests.exchange(client, code: code).decode(TokenResponse.self)
            // The same user and the same session: never a second one.
            #expect(linked.user?.id == session.user?.id)
            #expect(try Linking.sessionID(of: linked.accessToken) == (try Linking.sessionID(of: session.accessToken)))
            #expect(linked.refreshToken != session.refreshToken)
            #expect(try await Linking.count("sessions", in: test) == sessionsBefore)
            #expect(linked.user?.identities?.map(\.provider) == ["email", "strava"])
            #expect(linked.user?.email == "ada@example.com")

            // GET /user lists both identities.
            let me = try await client.send(.get, "/auth/v1/user", bearer: linked.accessToken).decode(SessionUser.self)
            #expect(me.identities?.map(\.provider) == ["email", "strava"])
            #expect(me.appMetadata["providers"] == .array(["email", "strava"]))

            // The token of before, within the grace, gets the successor the exchange answered (a lost answer).
            let retried = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            #expect(retried.refreshToken == linked.refreshToken)
            #expect(try Linking.sessionID(of: retried.accessToken) == (try Linking.sessionID(of: session.accessToken)))
            // And the successor goes on rotating in the same family.
            let next = try await client.refresh(linked.refreshToken)
            #expect(next.status == .ok)
            #expect(try await Linking.count("sessions", in: test) == sessionsBefore)

            // The linked athlete now signs in as this user.
            let signIn = try await OAuthFlowTests.exchange(
                client, code: try #require(OAuthFlowTests.query(try await OAuthFlowTests.runFlow(client), "code")))
            #expect(try signIn.decode(TokenResponse.self).user?.id == session.user?.id)
        }
    }

    /// The app keeps refreshing while the person is at the provider: the swap
    /// rotates out whatever token is active at the exchange, never an older one.
    @Test func aRefreshDuringTheLinkIsWhatTheExchangeSwapsOut() async throws {
        let test = try await Linking.server()
        try await test.run { client in
            let session = try await client.signUp()
            let state = try await Linking.start(client, bearer: session.accessToken)
            await test.clock.advance(by: 30)
            let refreshed = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            let code = try #require(OAuthFlowTests.query(try await Linking.callback(client, state: state), "code"))
            await test.clock.advance(by: 30)
            let linked = try await OAuthFlowTests.exchange(client, code: code).decode(TokenResponse.self)
            #expect(try Linking.sessionID(of: linked.accessToken) == (try Linking.sessionID(of: session.accessToken)))
            // The token the app held at the exchange gets the link's successor within the grace.
            #expect(try await client.refresh(refreshed.refreshToken).decode(TokenResponse.self).refreshToken == linked.refreshToken)
            #expect(try await client.refresh(linked.refreshToken).status == .ok)
        }
    }

    @Test func skipHTTPRedirectAnswersTheProviderURLAsJSON() async throws {
        let test = try await Linking.server()
        try await test.run { client in
            let session = try await client.signUp()
            let response = try await client.send(.get, Linking.authorizePath(skipRedirect: true), bearer: session.accessToken)
            #expect(response.status == .ok)
            let url = try #require((try response.jsonObject()["url"] as? String).flatMap(URL.init(string:)))
            #expect(url.host == "www.strava.com")
            #expect(OAuthFlowTests.query(url, "state") != nil)
            #expect(OAuthFlowTests.query(url, "redirect_uri") == "https://auth.example.com/auth/v1/callback")
        }
    }

    @Test func theLinkFlowNeedsABearerAndPKCE() async throws {
        let test = try await Linking.server()
        try await test.run { client in
            #expect(try await client.send(.get, Linking.authorizePath()).status == .unauthorized)
            let session = try await client.signUp()
            let noPKCE = try await client.send(
                .get, "/auth/v1/user/identities/authorize?provider=strava&redirect_to=myapp%3A%2F%2Fcb", bearer: session.accessToken)
            #expect(noPKCE.status == .badRequest)
            #expect(noPKCE.goTrueErrorCode == "validation_failed")
        }
    }

    @Test func anAnonymousUserBecomesPermanentWithTheSameIDDataAndSession() async throws {
        let provider = StubProvider(athleteID: 777, email: "sky@example.com", emailVerified: true)
        let test = try await Linking.server(provider: provider)
        try await test.run { client in
            let anonymous = try await client.send(.post, "/auth/v1/signup", json: #"{"data":{"theme":"dark"}}"#)
                .decode(TokenResponse.self)
            #expect(anonymous.user?.isAnonymous == true)
            let code = try #require(OAuthFlowTests.query(try await Linking.link(client, bearer: anonymous.accessToken), "code"))
            let linked = try await OAuthFlowTests.exchange(client, code: code).decode(TokenResponse.self)
            let user = try #require(linked.user)
            #expect(user.id == anonymous.user?.id)
            #expect(user.isAnonymous == false)
            #expect(user.userMetadata["theme"] == "dark")
            // A verified address no one holds becomes the account's (GoTrue's linkIdentityToUser).
            #expect(user.email == "sky@example.com")
            #expect(user.emailConfirmedAt != nil)
            #expect(try payload(of: linked.accessToken)["is_anonymous"] as? Bool == false)
            #expect(try Linking.sessionID(of: linked.accessToken) == (try Linking.sessionID(of: anonymous.accessToken)))
            let refreshed = try await client.refresh(linked.refreshToken).decode(TokenResponse.self)
            #expect(refreshed.user?.isAnonymous == false)
        }
    }

    @Test func anUnverifiedProviderAddressNeverBecomesTheAccountsAddress() async throws {
        let provider = StubProvider(athleteID: 778, email: "victim@example.com", emailVerified: false)
        let test = try await Linking.server(provider: provider)
        try await test.run { client in
            let anonymous = try await client.send(.post, "/auth/v1/signup", json: "{}").decode(TokenResponse.self)
            let code = try #require(OAuthFlowTests.query(try await Linking.link(client, bearer: anonymous.accessToken), "code"))
            let linked = try await OAuthFlowTests.exchange(client, code: code).decode(TokenResponse.self)
            #expect(linked.user?.email == nil)
            // Permanent all the same: the identity signs the person back in.
            #expect(linked.user?.isAnonymous == false)
            #expect(linked.user?.identities?.first?.identityData?["email"] == "victim@example.com")
            // The address's owner can still sign up with it.
            #expect(try await client.signUp("victim@example.com").user?.id != linked.user?.id)
        }
    }

    @Test func aVerifiedAddressAnotherAccountHoldsStaysTheirs() async throws {
        let provider = StubProvider(athleteID: 779, email: "ada@example.com", emailVerified: true)
        let test = try await Linking.server(provider: provider)
        try await test.run { client in
            let owner = try await client.signUp("ada@example.com")
            let anonymous = try await client.send(.post, "/auth/v1/signup", json: "{}").decode(TokenResponse.self)
            let code = try #require(OAuthFlowTests.query(try await Linking.link(client, bearer: anonymous.accessToken), "code"))
            let linked = try await OAuthFlowTests.exchange(client, code: code).decode(TokenResponse.self)
            // Linked, never merged: the anonymous user stays its own account, without the address.
            #expect(linked.user?.id == anonymous.user?.id)
            #expect(linked.user?.email == nil)
            let me = try await client.send(.get, "/auth/v1/user", bearer: owner.accessToken).decode(SessionUser.self)
            #expect(me.identities?.map(\.provider) == ["email"])
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .ok)
        }
    }

    @Test func theSwitchOffAnswersAsGoTrue() async throws {
        let test = try await Linking.server(on: false)
        try await test.run { client in
            let session = try await client.signUp()
            let authorize = try await client.send(.get, Linking.authorizePath(), bearer: session.accessToken)
            #expect(authorize.status == .notFound)
            #expect(authorize.goTrueErrorCode == "manual_linking_disabled")
            #expect(authorize.text.contains("Manual linking is disabled"))
            let id = UUID().uuidString.lowercased()
            let unlink = try await client.send(.delete, "/auth/v1/user/identities/\(id)", bearer: session.accessToken)
            #expect(unlink.status == .notFound)
            #expect(unlink.goTrueErrorCode == "manual_linking_disabled")
            // Authentication first, as GoTrue's route order: no bearer is a 401 either way.
            #expect(try await client.send(.get, Linking.authorizePath()).status == .unauthorized)
            #expect(try await Linking.count("oauth_flows", in: test) == 0)
        }
    }

    @Test func theSwitchReadsFlagThenEnvironment() throws {
        #expect(try AuthServerConfiguration.resolve(.init(), environment: [:]).manualLinking == false)
        #expect(try AuthServerConfiguration.resolve(.init(), environment: ["AUTH_SERVER_MANUAL_LINKING": "on"]).manualLinking)
        var flags = ConfigurationOverrides()
        flags.manualLinking = true
        #expect(try AuthServerConfiguration.resolve(flags, environment: ["AUTH_SERVER_MANUAL_LINKING": "off"]).manualLinking)
        #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(.init(), environment: ["AUTH_SERVER_MANUAL_LINKING": "maybe"])
        }
    }
}
