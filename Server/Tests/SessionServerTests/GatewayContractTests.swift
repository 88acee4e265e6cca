import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import SessionServer
import Testing

/// The gateway's 401 contract, clock-skew leeway and hostile tokens.
struct GatewayContractTests {
    static let wwwAuthenticate = #"Bearer error="invalid_token""#

    @Test(arguments: TestDatabase.all)
    func answersAuthRequiredWithoutChallengeWhenNoTokenWasSent(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let response = try await client.send(.get, "/v1/auth/me")
            #expect(response.status == .unauthorized)
            #expect(response.gatewayCode == "AUTH_REQUIRED")
            #expect(response.headers[.wwwAuthenticate] == nil)
            let json = try response.jsonObject()
            #expect(json["success"] as? Bool == false)
        }
    }

    @Test(arguments: ["Basic abc", "Bearer", "Bearer  ", "bearer a b", "Token xyz", String(repeating: "A", count: 9000)])
    func answersAuthRequiredForGarbageAuthorizationHeaders(header: String) async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let response = try await client.send(.get, "/v1/activities", headers: [.authorization: header])
            #expect(response.status == .unauthorized)
            #expect(response.gatewayCode == "AUTH_REQUIRED")
            #expect(response.headers[.wwwAuthenticate] == Self.wwwAuthenticate)
        }
    }

    @Test(arguments: TestDatabase.all)
    func acceptsATokenExpiredWithinTheLeewayAndRejectsOneBeyondIt(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            await test.clock.advance(by: 3600 + 59)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .ok)
            await test.clock.advance(by: 2)
            let expired = try await client.send(.get, "/v1/auth/me", bearer: session.accessToken)
            #expect(expired.status == .unauthorized)
            #expect(expired.gatewayCode == "SESSION_EXPIRED")
            #expect(expired.headers[.wwwAuthenticate] == Self.wwwAuthenticate)
        }
    }

    @Test(arguments: TestDatabase.all)
    func toleratesIssuedAtAndNotBeforeWithinTheLeeway(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let sessionID = try #require(try UnverifiedJWT(session.accessToken).claims.sessionId)
            var claims = TokenForge.claims(userID: session.user!.id, sessionID: sessionID, now: test.clock.now)
            let now = Int(test.clock.now.timeIntervalSince1970)
            claims["iat"] = now + 50
            claims["nbf"] = now + 50
            let skewed = try await TokenForge.signed(by: test.server, claims: claims)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: skewed).status == .ok)
            claims["iat"] = now + 120
            let future = try await TokenForge.signed(by: test.server, claims: claims)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: future).gatewayCode == "AUTH_REQUIRED")
            claims["iat"] = now
            claims["nbf"] = now + 120
            let notYet = try await TokenForge.signed(by: test.server, claims: claims)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: notYet).gatewayCode == "AUTH_REQUIRED")
        }
    }

    @Test(arguments: TestDatabase.all)
    func rejectsHostileTokensWithAuthRequired(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let sessionID = try #require(try UnverifiedJWT(session.accessToken).claims.sessionId)
            let claims = TokenForge.claims(userID: session.user!.id, sessionID: sessionID, now: test.clock.now)
            var wrongAudience = claims
            wrongAudience["aud"] = "someone-else"
            var wrongIssuer = claims
            wrongIssuer["iss"] = "https://evil.example"
            let hostile: [(String, String)] = [
                ("alg none", try TokenForge.unsigned(claims: claims)),
                ("HS256 with the public key", try await TokenForge.hs256WithPublicKey(server: test.server, claims: claims)),
                ("unknown kid", try await TokenForge.signed(
                    by: test.server, header: ["alg": "ES256", "kid": "no-such-key"], claims: claims)),
                ("no kid", try await TokenForge.signed(by: test.server, header: ["alg": "ES256"], claims: claims)),
                ("tampered payload", try TokenForge.tampered(session.accessToken, sub: UUID().uuidString)),
                ("wrong aud", try await TokenForge.signed(by: test.server, claims: wrongAudience)),
                ("wrong iss", try await TokenForge.signed(by: test.server, claims: wrongIssuer)),
                ("not a JWT", "abc.def"),
                ("bad base64", "###.###.###"),
            ]
            for (name, token) in hostile {
                let response = try await client.send(.get, "/v1/activities", bearer: token)
                #expect(response.status == .unauthorized, "\(name)")
                #expect(response.gatewayCode == "AUTH_REQUIRED", "\(name)")
                #expect(response.headers[.wwwAuthenticate] == Self.wwwAuthenticate, "\(name)")
            }
            // Nothing was written by any of them.
            #expect(try await test.server.store.activities(userID: session.user!.id).isEmpty)
        }
    }

    @Test(arguments: TestDatabase.all)
    func answersSessionExpiredForARevokedSession(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            _ = try await client.send(.post, "/auth/v1/logout", bearer: session.accessToken)
            let response = try await client.send(.get, "/v1/sessions", bearer: session.accessToken)
            #expect(response.status == .unauthorized)
            #expect(response.gatewayCode == "SESSION_EXPIRED")
        }
    }

    @Test(arguments: TestDatabase.all)
    func keepsTokensSignedByThePreviousKeyValidAfterRotation(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let oldKid = try await test.server.keyRing.currentKeyID()
            let newKid = try await test.server.keyRing.rotate()
            #expect(newKid != oldKid)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .ok)
            let jwks = try await client.send(.get, "/auth/v1/.well-known/jwks.json").decode(JWKS.self)
            #expect(Set(jwks.keys.compactMap(\.kid)) == [oldKid, newKid])
            let fresh = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            #expect(try UnverifiedJWT(fresh.accessToken).header.kid == newKid)
            // A second rotation retires the first key.
            _ = try await test.server.keyRing.rotate()
            let old = try await client.send(.get, "/v1/auth/me", bearer: session.accessToken)
            #expect(old.gatewayCode == "AUTH_REQUIRED")
        }
    }
}
