import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import SessionServer
import Testing

/// The GoTrue-compatible surface, as Supabase clients call it.
struct GoTrueAPITests {
    @Test(arguments: TestDatabase.all)
    func signUpAnswersASessionWithTheUser(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let response = try await client.send(
                .post, "/auth/v1/signup", json: #"{"email":"Ada@Example.com","password":"correct-horse","data":{"plan":"pro"}}"#)
            #expect(response.status == .ok)
            let session = try response.decode(TokenResponse.self)
            #expect(session.user!.email == "ada@example.com")
            #expect(session.user!.aud == "authenticated")
            #expect(session.user!.role == "authenticated")
            #expect(session.user!.userMetadata["plan"] == "pro")
            #expect(session.user!.appMetadata["provider"] == "email")
            #expect(session.user!.emailConfirmedAt != nil)
            #expect(session.expiresAt == Int(test.clock.now.timeIntervalSince1970) + 3600)
            #expect(session.refreshToken.count == 43)
        }
    }

    @Test(arguments: TestDatabase.all)
    func accessTokenCarriesSupabaseClaims(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let jwt = try UnverifiedJWT(session.accessToken)
            #expect(jwt.header.alg == "ES256")
            #expect(jwt.header.kid == (try await test.server.keyRing.currentKeyID()))
            #expect(jwt.claims.sub == session.user!.id)
            #expect(jwt.claims.aud == ["authenticated"])
            #expect(jwt.claims.role == "authenticated")
            #expect(jwt.claims.iss == "sessionkit")
            #expect(jwt.claims.email == "ada@example.com")
            #expect(jwt.claims.sessionId != nil)
            #expect(jwt.claims.exp == test.clock.now.addingTimeInterval(3600))
        }
    }

    @Test(arguments: TestDatabase.all)
    func signUpRejectsATakenEmail(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            _ = try await client.signUp()
            let again = try await client.send(.post, "/auth/v1/signup", json: #"{"email":"ada@example.com","password":"other-pass"}"#)
            #expect(again.status == .unprocessableContent)
            #expect(again.goTrueErrorCode == "user_already_exists")
        }
    }

    @Test(arguments: TestDatabase.all)
    func signUpRejectsAWeakPasswordAndABadEmail(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let weak = try await client.send(.post, "/auth/v1/signup", json: #"{"email":"a@example.com","password":"123"}"#)
            #expect(weak.status == .unprocessableContent)
            #expect(weak.goTrueErrorCode == "weak_password")
            let reasons = try weak.jsonObject()["weak_password"] as? [String: Any]
            #expect(reasons?["reasons"] as? [String] == ["length"])
            let email = try await client.send(.post, "/auth/v1/signup", json: #"{"email":"not-an-email","password":"123456"}"#)
            #expect(email.status == .badRequest)
            #expect(email.goTrueErrorCode == "validation_failed")
        }
    }

    @Test(arguments: TestDatabase.all)
    func signInAnswersTheSameErrorForUnknownEmailAndWrongPassword(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            _ = try await client.signUp()
            let wrongPassword = try await client.signIn("ada@example.com", password: "wrong-password")
            let unknownEmail = try await client.signIn("nobody@example.com", password: "wrong-password")
            #expect(wrongPassword.status == .badRequest)
            #expect(wrongPassword.goTrueErrorCode == "invalid_credentials")
            #expect(wrongPassword.text == unknownEmail.text)
            #expect(wrongPassword.status == unknownEmail.status)
            let ok = try await client.signIn("ada@example.com", password: "correct-horse")
            #expect(try ok.decode(TokenResponse.self).user?.lastSignInAt != nil)
        }
    }

    @Test(arguments: TestDatabase.all)
    func readsAndUpdatesTheUser(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let user = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken).decode(SessionUser.self)
            #expect(user.id == session.user!.id)
            let updated = try await client.send(
                .put, "/auth/v1/user", json: #"{"data":{"first_name":"Ada","theme":"dark"}}"#, bearer: session.accessToken
            ).decode(SessionUser.self)
            #expect(updated.userMetadata["first_name"] == "Ada")
            let merged = try await client.send(
                .put, "/auth/v1/user", json: #"{"data":{"theme":null}}"#, bearer: session.accessToken
            ).decode(SessionUser.self)
            #expect(merged.userMetadata == ["first_name": "Ada"])
        }
    }

    @Test(arguments: TestDatabase.all)
    func updatesThePassword(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let response = try await client.send(
                .put, "/auth/v1/user", json: #"{"password":"new-password"}"#, bearer: session.accessToken)
            #expect(response.status == .ok)
            #expect(try await client.signIn("ada@example.com", password: "new-password").status == .ok)
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .badRequest)
        }
    }

    @Test(arguments: TestDatabase.all)
    func logoutScopesEndTheRightSessions(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let phone = try await client.signUp()
            let laptop = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let tablet = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)

            #expect(try await client.send(.post, "/auth/v1/logout?scope=others", bearer: laptop.accessToken).status == .noContent)
            #expect(try await client.refresh(phone.refreshToken).goTrueErrorCode == "refresh_token_not_found")
            #expect(try await client.refresh(tablet.refreshToken).goTrueErrorCode == "refresh_token_not_found")
            let laptop2 = try await client.refresh(laptop.refreshToken).decode(TokenResponse.self)

            #expect(try await client.send(.post, "/auth/v1/logout", bearer: laptop2.accessToken).status == .noContent)
            #expect(try await client.refresh(laptop2.refreshToken).goTrueErrorCode == "refresh_token_not_found")
            let after = try await client.send(.get, "/auth/v1/user", bearer: laptop2.accessToken)
            #expect(after.status == .forbidden)
            #expect(after.goTrueErrorCode == "session_not_found")
        }
    }

    @Test(arguments: TestDatabase.all)
    func rejectsAnUnknownLogoutScope(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let response = try await client.send(.post, "/auth/v1/logout?scope=everyone", bearer: session.accessToken)
            #expect(response.status == .badRequest)
            #expect(response.goTrueErrorCode == "validation_failed")
        }
    }

    @Test(arguments: TestDatabase.all)
    func servesJWKSSettingsAndHealth(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let jwks = try await client.send(.get, "/auth/v1/.well-known/jwks.json").decode(JWKS.self)
            #expect(jwks.keys.count == 1)
            #expect(jwks.keys.first?.kty == "EC")
            #expect(jwks.keys.first?.alg == "ES256")
            let settings = try await client.send(.get, "/auth/v1/settings")
            #expect(try settings.jsonObject()["mailer_autoconfirm"] as? Bool == true)
            #expect(try await client.send(.get, "/auth/v1/health").status == .ok)
        }
    }

    @Test(arguments: TestDatabase.all)
    func answersTheNewerErrorShapeWhenAsked(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let response = try await client.send(
                .post, "/auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"nope"}"#,
                headers: [GoTrueError.apiVersionHeader: "2024-01-01"])
            #expect(response.status == .badRequest)
            let json = try response.jsonObject()
            #expect(json["code"] as? String == "refresh_token_not_found")
            #expect(json["message"] as? String == "Invalid Refresh Token: Refresh Token Not Found")
            #expect(json["msg"] == nil)
            #expect(response.headers[GoTrueError.apiVersionHeader] == "2024-01-01")
        }
    }

    @Test(arguments: TestDatabase.all)
    func rejectsUnknownGrantTypesAndPKCECodesWithoutAFlow(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let unknown = try await client.send(.post, "/auth/v1/token?grant_type=magic", json: "{}")
            #expect(unknown.status == .badRequest)
            #expect(unknown.goTrueErrorCode == "unsupported_grant_type")
            let missing = try await client.send(.post, "/auth/v1/token", json: "{}")
            #expect(missing.goTrueErrorCode == "unsupported_grant_type")
            let pkce = try await client.send(
                .post, "/auth/v1/token?grant_type=pkce", json: #"{"auth_code":"abc","code_verifier":"def"}"#)
            #expect(pkce.status == .notFound)
            #expect(pkce.goTrueErrorCode == "flow_state_not_found")
        }
    }

    @Test(arguments: TestDatabase.all)
    func answersBadJWTForAnExpiredTokenOnUser(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            await test.clock.advance(by: 3600 + 61)
            let response = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken)
            #expect(response.status == .forbidden)
            #expect(response.goTrueErrorCode == "bad_jwt")
            #expect(response.text.contains("expired"))
            // The refresh token still works: an expired access token does not end the session.
            #expect(try await client.refresh(session.refreshToken).status == .ok)
        }
    }

    @Test(arguments: TestDatabase.all)
    func bearerRoutesAnswerGoTrueAuthErrors(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let none = try await client.send(.get, "/auth/v1/user")
            #expect(none.status == .unauthorized)
            #expect(none.goTrueErrorCode == "no_authorization")
            let garbage = try await client.send(.get, "/auth/v1/user", bearer: "garbage")
            #expect(garbage.status == .forbidden)
            #expect(garbage.goTrueErrorCode == "bad_jwt")
        }
    }
}

/// Browsers (supabase-js) call cross-origin.
struct CORSTests {
    @Test func answersPreflightForTheTokenEndpoint() async throws {
        let test = try await TestServer.make { $0.corsOrigins = try! CORSAllowList(parsing: "https://app.example") }
        try await test.run { client in
            let response = try await client.executeRequest(
                uri: "/auth/v1/token?grant_type=password", method: .options,
                headers: [
                    .origin: "https://app.example", HTTPField.Name("Access-Control-Request-Method")!: "POST",
                    HTTPField.Name("Access-Control-Request-Headers")!: "apikey, content-type",
                ], body: nil)
            #expect(response.status.code < 300)
            #expect(response.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == "https://app.example")
            #expect(response.headers[HTTPField.Name("Access-Control-Allow-Headers")!]?.lowercased().contains("apikey") == true)
        }
    }
}

/// Sign-up races, on every database.
struct SignUpRaceTests {
    @Test(arguments: TestDatabase.all)
    func concurrentSignUpsWithOneEmailCreateOneUser(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await client.send(
                            .post, "/auth/v1/signup", json: #"{"email":"race@example.com","password":"correct-horse"}"#
                        ).status.code
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [200, 422, 422, 422])
        }
    }
}
