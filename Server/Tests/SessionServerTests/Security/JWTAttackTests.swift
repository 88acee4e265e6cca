import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// The JWT attack suite: each hostile token of ``JWTAttack/catalog`` against
/// the gateway (`AuthMiddleware`) and GoTrue's `/auth/v1/user`, each answered
/// with the documented code, never a 2xx or a 5xx, and nothing written.
struct JWTAttackTests {
    @Test(arguments: JWTAttack.catalog)
    func rejectsWithTheDocumentedCode(attack: JWTAttack) async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let scene = try await Self.scene(test, client)
            let token = try await attack.forge(scene)

            for route in ["/v1/auth/me", "/v1/activities", "/v1/sessions"] {
                let response = try await client.send(.get, route, bearer: token)
                #expect(response.status == .unauthorized, "\(attack.name) on \(route): \(response.status)")
                #expect(response.gatewayCode == attack.verdict.gatewayCode, "\(attack.name) on \(route): \(response.text)")
                #expect(response.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#, "\(attack.name)")
            }
            let write = try await client.send(
                .post, "/v1/activities", json: #"{"name":"x","distance_m":1,"started_at":"2026-01-01T00:00:00Z"}"#,
                bearer: token)
            #expect(write.status == .unauthorized, "\(attack.name): \(write.status)")

            let user = try await client.send(.get, "/auth/v1/user", bearer: token)
            #expect(user.status == .forbidden, "\(attack.name) on /auth/v1/user: \(user.status)")
            #expect(user.goTrueErrorCode == attack.verdict.goTrueErrorCode, "\(attack.name) on /auth/v1/user: \(user.text)")
            let update = try await client.send(.put, "/auth/v1/user", json: #"{"data":{"pwned":true}}"#, bearer: token)
            #expect(update.status == .forbidden, "\(attack.name) on PUT /auth/v1/user: \(update.status)")
            let logout = try await client.send(.post, "/auth/v1/logout?scope=global", bearer: token)
            #expect(logout.status == .forbidden, "\(attack.name) on logout: \(logout.status)")

            // Nothing was written and nobody was signed out.
            #expect(try await test.server.store.activities(userID: scene.victim.user!.id).isEmpty)
            #expect(try await test.server.store.activities(userID: scene.attacker.user!.id).isEmpty)
            let victim = try #require(try await test.server.store.user(id: scene.victim.user!.id))
            #expect(victim.sessionUser.userMetadata["pwned"] == nil)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: scene.victim.accessToken).status == .ok)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: scene.attacker.accessToken).status == .ok)
        }
    }

    /// The oversized tokens over a real socket too: the HTTP layer answers 401, not 431 or 500.
    @Test func answersOversizedTokensWith401OverASocket() async throws {
        let test = try await TestServer.make()
        let attacks = JWTAttack.catalog.filter { $0.name.hasPrefix("oversized") }
        #expect(attacks.count == 2)
        try await test.runLive { client in
            let scene = try await Self.scene(test, client)
            for attack in attacks {
                let token = try await attack.forge(scene)
                #expect(token.utf8.count > UnverifiedJWT.maximumLength)
                let gateway = try await client.send(.get, "/v1/auth/me", bearer: token)
                #expect(gateway.status == .unauthorized, "\(attack.name)")
                #expect(gateway.gatewayCode == "AUTH_REQUIRED", "\(attack.name)")
                let user = try await client.send(.get, "/auth/v1/user", bearer: token)
                #expect(user.status == .forbidden, "\(attack.name)")
                #expect(user.goTrueErrorCode == "bad_jwt", "\(attack.name)")
            }
        }
    }

    static func scene(_ test: TestServer, _ client: any TestClientProtocol) async throws -> JWTAttack.Scene {
        let victim = try await client.signUp("victim@example.com")
        let attacker = try await client.signUp("attacker@example.com")
        return JWTAttack.Scene(
            server: test.server, now: test.clock.now, victim: victim,
            victimSessionID: try #require(try UnverifiedJWT(victim.accessToken).claims.sessionId), attacker: attacker,
            attackerSessionID: try #require(try UnverifiedJWT(attacker.accessToken).claims.sessionId))
    }
}

extension JWTAttack.Verdict {
    var gatewayCode: String {
        switch self {
        case .authRequired: "AUTH_REQUIRED"
        case .expired, .sessionEnded: "SESSION_EXPIRED"
        }
    }

    var goTrueErrorCode: String {
        switch self {
        case .authRequired, .expired: "bad_jwt"
        case .sessionEnded: "session_not_found"
        }
    }
}
