import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// `grant_type=id_token` with `link_identity: true` (GoTrue's `IdTokenGrant`,
/// `internal/api/token_oidc.go`): Sign in with Apple linked to the bearer's
/// user, answered for the bearer's session.
struct LinkingIDTokenTests {
    /// An auth server with linking `on` whose Apple keys come from a loopback JWKS server.
    static func withServer(
        on: Bool = true, _ body: @escaping @Sendable (TestServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        let document = try JSONEncoder().encode(try AppleIDTokenTests.jwks())
        let router = Router()
        router.get("auth/keys") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
        }
        try await Application(router: router).test(.live) { jwksServer in
            let port = try #require(jwksServer.port)
            let test = try await TestServer.make {
                $0.apple = AppleSignInConfiguration(
                    clientIDs: [AppleIDTokenTests.clientID], jwksURL: URL(string: "http://127.0.0.1:\(port)/auth/keys")!)
                $0.manualLinking = on
            }
            try await test.run { client in try await body(test, client) }
        }
    }

    static func link(_ client: any TestClientProtocol, _ token: String, bearer: String?) async throws -> TestResponse {
        try await client.send(
            .post, "/auth/v1/token?grant_type=id_token",
            json: #"{"provider":"apple","id_token":"\#(token)","nonce":"raw-nonce","link_identity":true}"#, bearer: bearer)
    }

    @Test func anAppleIDTokenLinksToTheBearersUserInTheSameSession() async throws {
        try await Self.withServer { test, client in
            let session = try await client.signUp()
            let sessions = try await Linking.count("sessions", in: test)
            let response = try await Self.link(client, try AppleIDTokenTests.idToken(now: test.clock.now), bearer: session.accessToken)
            let linked = try response.decode(TokenResponse.self)
            #expect(linked.user?.id == session.user?.id)
            #expect(linked.user?.identities?.map(\.provider) == ["email", "apple"])
            // The account keeps its own address; Apple's stays in the identity.
            #expect(linked.user?.email == "ada@example.com")
            #expect(try Linking.sessionID(of: linked.accessToken) == (try Linking.sessionID(of: session.accessToken)))
            #expect(try await Linking.count("sessions", in: test) == sessions)
            let retried = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            #expect(retried.refreshToken == linked.refreshToken)
            // Apple now signs in as this user.
            let signIn = try await AppleIDTokenTests.signIn(client, try AppleIDTokenTests.idToken(now: test.clock.now))
            #expect(try signIn.decode(TokenResponse.self).user?.id == session.user?.id)
        }
    }

    @Test func anAppleAccountOfAnotherUserIsRefused() async throws {
        try await Self.withServer { test, client in
            let owner = try await AppleIDTokenTests.signIn(client, try AppleIDTokenTests.idToken(now: test.clock.now))
                .decode(TokenResponse.self)
            let eve = try await client.signUp("eve@example.com")
            let response = try await Self.link(client, try AppleIDTokenTests.idToken(now: test.clock.now), bearer: eve.accessToken)
            #expect(response.status == .unprocessableContent)
            #expect(response.goTrueErrorCode == "identity_already_exists")
            // Eve's session is as it was: her refresh token still rotates normally.
            #expect(try await client.refresh(eve.refreshToken).status == .ok)
            let again = try await AppleIDTokenTests.signIn(client, try AppleIDTokenTests.idToken(now: test.clock.now))
            #expect(try again.decode(TokenResponse.self).user?.id == owner.user?.id)
        }
    }

    @Test func linkingNeedsABearerAndTheSwitch() async throws {
        try await Self.withServer { test, client in
            let missing = try await Self.link(client, try AppleIDTokenTests.idToken(now: test.clock.now), bearer: nil)
            #expect(missing.status == .badRequest)
            #expect(missing.text.contains("Linking requires a valid user access token in Authorization"))
            let garbage = try await Self.link(client, try AppleIDTokenTests.idToken(now: test.clock.now), bearer: "not-a-jwt")
            #expect(garbage.status == .forbidden)
            #expect(try await Linking.count("identities", in: test) == 0)
        }
        try await Self.withServer(on: false) { test, client in
            let session = try await client.signUp()
            let off = try await Self.link(client, try AppleIDTokenTests.idToken(now: test.clock.now), bearer: session.accessToken)
            #expect(off.status == .notFound)
            #expect(off.goTrueErrorCode == "manual_linking_disabled")
        }
    }
}
