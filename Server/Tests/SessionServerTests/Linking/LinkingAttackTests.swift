import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Issue 40, item 9: what an attacker tries against linking.
struct LinkingAttackTests {
    @Test(arguments: TestDatabase.all)
    func anIdentityOfAnotherUserIsRefusedAndStaysTheirs(database: TestDatabase) async throws {
        let test = try await Linking.server(database)
        try await test.run { client in
            // The athlete signed in on their own: their user holds the identity.
            let owner = try await OAuthFlowTests.exchange(
                client, code: try #require(OAuthFlowTests.query(try await OAuthFlowTests.runFlow(client), "code"))
            ).decode(TokenResponse.self)
            let eve = try await client.signUp("eve@example.com")
            let appURL = try await Linking.link(client, bearer: eve.accessToken)
            #expect(OAuthFlowTests.query(appURL, "code") == nil)
            #expect(OAuthFlowTests.query(appURL, "error") == "server_error")
            #expect(OAuthFlowTests.query(appURL, "error_code") == "identity_already_exists")
            #expect(OAuthFlowTests.query(appURL, "error_description") == "Identity is already linked to another user")
            let me = try await client.send(.get, "/auth/v1/user", bearer: eve.accessToken).decode(SessionUser.self)
            #expect(me.identities?.map(\.provider) == ["email"])
            // The athlete still signs in as its owner.
            let again = try await OAuthFlowTests.exchange(
                client, code: try #require(OAuthFlowTests.query(try await OAuthFlowTests.runFlow(client), "code")))
            #expect(try again.decode(TokenResponse.self).user?.id == owner.user?.id)
            // Linking it again to its owner: already linked.
            let own = try await Linking.link(client, bearer: owner.accessToken)
            #expect(OAuthFlowTests.query(own, "error_description") == "Identity is already linked")
        }
    }

    @Test func aLinkCodeExchangedAfterItsSessionSignedOutStartsNoSession() async throws {
        let test = try await Linking.server()
        try await test.run { client in
            let session = try await client.signUp()
            let code = try #require(OAuthFlowTests.query(try await Linking.link(client, bearer: session.accessToken), "code"))
            #expect(try await client.send(.post, "/auth/v1/logout?scope=local", bearer: session.accessToken).status == .noContent)
            let sessions = try await Linking.count("sessions", in: test)
            let exchange = try await OAuthFlowTests.exchange(client, code: code)
            #expect(exchange.status == .badRequest)
            #expect(exchange.goTrueErrorCode == "session_not_found")
            #expect(try await Linking.count("sessions", in: test) == sessions)
            #expect(try await Linking.count("refresh_tokens", in: test) == 1)
        }
    }

    @Test func aSessionSignedOutBeforeTheCallbackLinksNothing() async throws {
        let test = try await Linking.server()
        try await test.run { client in
            let session = try await client.signUp()
            let state = try await Linking.start(client, bearer: session.accessToken)
            #expect(try await client.send(.post, "/auth/v1/logout?scope=global", bearer: session.accessToken).status == .noContent)
            let appURL = try await Linking.callback(client, state: state)
            #expect(OAuthFlowTests.query(appURL, "error_code") == "session_not_found")
            #expect(try await Linking.count("identities", in: test) == 0)
        }
    }

    @Test func aReplayedLinkCallbackLinksNothingMore() async throws {
        let test = try await Linking.server()
        try await test.run { client in
            let session = try await client.signUp()
            let state = try await Linking.start(client, bearer: session.accessToken)
            let first = try await Linking.callback(client, state: state)
            let code = try #require(OAuthFlowTests.query(first, "code"))
            let replay = try await Linking.callback(client, state: state)
            #expect(OAuthFlowTests.query(replay, "code") == nil)
            #expect(OAuthFlowTests.query(replay, "error_code") == "bad_oauth_state")
            #expect(try await Linking.count("identities", in: test) == 1)
            #expect(try await OAuthFlowTests.exchange(client, code: code).status == .ok)
            let again = try await OAuthFlowTests.exchange(client, code: code)
            #expect(again.goTrueErrorCode == "flow_state_not_found")
        }
    }

    @Test func anEnrolledUserLinksAndUnlinksOnlyFromAnAAL2Session() async throws {
        let test = try await Linking.server()
        try await test.run { client in
            let first = try await client.signUp()
            let (_, aal2) = try await client.enrollAndVerify(first.accessToken, at: test.clock.now)
            let aal1 = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let refused = try await client.send(.get, Linking.authorizePath(), bearer: aal1.accessToken)
            #expect(refused.status == .forbidden)
            #expect(refused.goTrueErrorCode == "insufficient_aal")
            let unlink = try await client.send(
                .delete, "/auth/v1/user/identities/\(UUID().uuidString)", bearer: aal1.accessToken)
            #expect(unlink.goTrueErrorCode == "insufficient_aal")
            #expect(try await client.send(.get, Linking.authorizePath(), bearer: aal2.accessToken).status == .found)
        }
    }

    /// The account page redeems sign-in codes into a cookie session of its own: a link
    /// code there would move the app's session into a browser, so it is unknown.
    @Test func aLinkCodeIsNotASignInCodeForTheAccountPage() async throws {
        let test = try await Linking.server()
        try await test.run { client in
            let session = try await client.signUp()
            let code = try #require(OAuthFlowTests.query(try await Linking.link(client, bearer: session.accessToken), "code"))
            await #expect(throws: AuthError.flowStateNotFound) {
                _ = try await test.server.oauth.redeemCode(
                    PKCETokenRequest(authCode: code, codeVerifier: OAuthFlowTests.verifier),
                    origin: .init(userAgent: nil, ip: nil), absoluteTTL: 3600)
            }
            // Still good for the app that started it.
            #expect(try await OAuthFlowTests.exchange(client, code: code).status == .ok)
        }
    }
}
