import Foundation
import HTTPTypes
import SessionKitTesting
import HummingbirdTesting
import SessionCore
import SessionServer
import Testing

/// Issue 15 §8: a password change signs out the other sessions and, like
/// deleting the account, needs proof of presence.
struct ReauthenticationTests {
    static func changePassword(
        _ client: any TestClientProtocol, bearer: String, current: String? = nil, to password: String = "new-password-1"
    ) async throws -> TestResponse {
        let proof = current.map { #","current_password":"\#($0)""# } ?? ""
        return try await client.send(.put, "/auth/v1/user", json: #"{"password":"\#(password)"\#(proof)}"#, bearer: bearer)
    }

    /// The token's payload, as JSON.
    static func payload(_ token: String) throws -> [String: Any] {
        let part = try #require(token.split(separator: ".").dropFirst().first)
        let data = try #require(Base64URL.decode(String(part)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(arguments: TestDatabase.all)
    func aPasswordChangeSignsOutEveryOtherSession(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let phone = try await client.signUp()
            let laptop = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            #expect(try await Self.changePassword(client, bearer: phone.accessToken).status == .ok)
            // The other session can neither refresh nor read the profile.
            #expect(try await client.refresh(laptop.refreshToken).goTrueErrorCode == "refresh_token_not_found")
            #expect(try await client.send(.get, "/v1/auth/me", bearer: laptop.accessToken).status == .unauthorized)
            // The session that made the change stays signed in.
            #expect(try await client.send(.get, "/v1/auth/me", bearer: phone.accessToken).status == .ok)
            #expect(try await client.refresh(phone.refreshToken).status == .ok)
        }
    }

    @Test(arguments: TestDatabase.all)
    func anOldSessionNeedsTheCurrentPassword(database: TestDatabase) async throws {
        let test = try await TestServer.make(database) { $0.reauthenticationWindow = 600 }
        try await test.run { client in
            let session = try await client.signUp()
            await test.clock.advance(by: 601)
            // A refresh does not make the sign-in younger.
            let refreshed = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            let stale = try await Self.changePassword(client, bearer: refreshed.accessToken)
            #expect(stale.status == .badRequest)
            #expect(stale.goTrueErrorCode == "reauthentication_needed")
            #expect(stale.text.contains("current_password"))
            let wrong = try await Self.changePassword(client, bearer: refreshed.accessToken, current: "not-the-password")
            #expect(wrong.goTrueErrorCode == "current_password_mismatch")
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .ok)

            let proved = try await Self.changePassword(client, bearer: refreshed.accessToken, current: "correct-horse")
            #expect(proved.status == .ok)
            #expect(try await client.signIn("ada@example.com", password: "new-password-1").status == .ok)
        }
    }

    @Test func theTokenSaysWhenAndHowTheSessionSignedIn() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let signedInAt = Int(test.clock.now.timeIntervalSince1970)
            await test.clock.advance(by: 120)
            let refreshed = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            for token in [session.accessToken, refreshed.accessToken] {
                let amr = try #require(try Self.payload(token)["amr"] as? [[String: Any]])
                #expect(amr.first?["method"] as? String == "password")
                #expect(amr.first?["timestamp"] as? Int == signedInAt)
            }
        }
    }

    @Test(arguments: TestDatabase.all)
    func deletingTheAccountNeedsTheSameProof(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            await test.clock.advance(by: 601)
            let refreshed = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            let stale = try await client.send(.delete, "/v1/auth/me", bearer: refreshed.accessToken)
            #expect(stale.status == .forbidden)
            #expect(stale.gatewayCode == "REAUTHENTICATION_REQUIRED")
            #expect(stale.text.contains("current_password"))
            let wrong = try await client.send(
                .delete, "/v1/auth/me", json: #"{"current_password":"nope-nope"}"#, bearer: refreshed.accessToken)
            #expect(wrong.gatewayCode == "REAUTHENTICATION_REQUIRED")
            #expect(try await test.server.store.user(email: "ada@example.com") != nil)
            let proved = try await client.send(
                .delete, "/v1/auth/me", json: #"{"current_password":"correct-horse"}"#, bearer: refreshed.accessToken)
            #expect(proved.status == .ok)
            #expect(try await test.server.store.user(email: "ada@example.com") == nil)
        }
    }

    @Test func aFirstPasswordOnAnOAuthAccountNeedsAFreshSignIn() async throws {
        let provider = StubProvider(athleteID: 134_815)
        let test = try await TestServer.make(configure: provider.configure)
        try await test.run { client in
            let code = try #require(OAuthFlowTests.query(try await OAuthFlowTests.runFlow(client), "code"))
            let session = try await OAuthFlowTests.exchange(client, code: code).decode(TokenResponse.self)
            let amr = try #require(try Self.payload(session.accessToken)["amr"] as? [[String: Any]])
            #expect(amr.first?["method"] as? String == "oauth")
            await test.clock.advance(by: 601)
            let refreshed = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            // No current password exists, so none can prove presence: only signing in again can.
            let stale = try await Self.changePassword(client, bearer: refreshed.accessToken)
            #expect(stale.goTrueErrorCode == "reauthentication_needed")
            let guessed = try await Self.changePassword(client, bearer: refreshed.accessToken, current: "")
            #expect(guessed.goTrueErrorCode == "current_password_mismatch")
            let fresh = try #require(OAuthFlowTests.query(try await OAuthFlowTests.runFlow(client), "code"))
            let again = try await OAuthFlowTests.exchange(client, code: fresh).decode(TokenResponse.self)
            #expect(try await Self.changePassword(client, bearer: again.accessToken).status == .ok)
        }
    }

    @Test func theWindowIsConfigurable() throws {
        let configuration = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(), environment: ["AUTH_SERVER_REAUTHENTICATION_WINDOW": "300"])
        #expect(configuration.reauthenticationWindow == 300)
        #expect(try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: [:]).reauthenticationWindow == 600)
        #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(
                ConfigurationOverrides(), environment: ["AUTH_SERVER_REAUTHENTICATION_WINDOW": "-1"])
        }
    }
}
