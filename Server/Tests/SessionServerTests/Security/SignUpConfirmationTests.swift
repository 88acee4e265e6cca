import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 29, item 1: with mail configured a password sign-up waits for its
/// address to be confirmed, so nobody can claim someone else's address with
/// a password of their own (account pre-hijacking).
struct SignUpConfirmationTests {
    static func run(
        _ database: TestDatabase = .sqlite,
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol, RecordingMailTransport) async throws -> Void
    ) async throws {
        try await EmailTestServer.run(database, configure: { $0.autoconfirm = false }, body)
    }

    static func signUp(_ client: any TestClientProtocol, _ email: String, _ password: String) async throws -> TestResponse {
        try await client.send(.post, "/auth/v1/signup", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    static func object(_ response: TestResponse) throws -> [String: JSONValue] {
        try WireCoding.decoder().decode([String: JSONValue].self, from: Data(response.body.readableBytesView))
    }

    /// The attack as the review ran it live: the attacker's sign-up of the
    /// victim's address, the victim's later sign-in by emailed code, and the
    /// attacker's password still opening the account.
    @Test(arguments: TestDatabase.all)
    func anAttackersSignUpDoesNotOpenTheVictimsAccount(database: TestDatabase) async throws {
        try await Self.run(database) { test, client, mail in
            let attacker = try await Self.signUp(client, "victim@example.com", "attacker-password-1")
            #expect(attacker.status == .ok)
            let answer = try Self.object(attacker)
            // GoTrue's answer with confirmation on: a user, no session.
            #expect(answer["access_token"] == nil)
            #expect(answer["refresh_token"] == nil)
            #expect(answer["email"] == .string("victim@example.com"))
            #expect(answer["email_confirmed_at"] == nil || answer["email_confirmed_at"] == .null)
            #expect(answer["confirmation_sent_at"] != nil)
            let confirmation = try await mail.next()
            #expect(confirmation.subject.hasPrefix("Confirm your email"))
            #expect(confirmation.link?.absoluteString.contains("type=signup") == true)

            let early = try await client.signIn("victim@example.com", password: "attacker-password-1")
            #expect(early.status == .badRequest)
            #expect(early.goTrueErrorCode == "email_not_confirmed")
            // A wrong password still answers as any wrong password: nothing learnt without it.
            #expect(try await client.signIn("victim@example.com", password: "wrong-password-9").goTrueErrorCode == "invalid_credentials")

            // Later the victim signs in with a code from their own mailbox.
            await test.clock.advance(by: 61)
            #expect(try await client.requestCode("victim@example.com").status == .ok)
            let code = try #require(try await mail.next().code)
            let victim = try await client.verify(type: "email", email: "victim@example.com", code: code)
            #expect(victim.status == .ok)
            #expect(try victim.decode(TokenResponse.self).user?.emailConfirmedAt != nil)

            // The attacker's password no longer opens the account.
            let late = try await client.signIn("victim@example.com", password: "attacker-password-1")
            #expect(late.status == .badRequest)
            #expect(late.goTrueErrorCode == "invalid_credentials")
            let audit = try await test.server.store.auditLog(page: 1, perPage: 10).entries.map(\.action)
            #expect(audit.contains("unconfirmed_password_cleared"))
        }
    }

    @Test(arguments: TestDatabase.all)
    func theConfirmationCodeSignsInAndKeepsThePassword(database: TestDatabase) async throws {
        try await Self.run(database) { _, client, mail in
            #expect(try await Self.signUp(client, "ada@example.com", "ada-password-1").status == .ok)
            let code = try #require(try await mail.next().code)
            let confirmed = try await client.verify(type: "signup", email: "ada@example.com", code: code)
            let session = try confirmed.decode(TokenResponse.self)
            #expect(session.user?.emailConfirmedAt != nil)
            #expect(try await client.refresh(session.refreshToken).status == .ok)
            #expect(try await client.signIn("ada@example.com", password: "ada-password-1").status == .ok)
        }
    }

    @Test func theEmailLinkConfirmsToo() async throws {
        try await Self.run { test, client, mail in
            _ = try await Self.signUp(client, "ada@example.com", "ada-password-1")
            let token = try #require(try await mail.next().linkToken)
            let confirmed = try await client.send(
                .post, "/auth/v1/verify", json: #"{"type":"signup","token_hash":"\#(token)"}"#)
            #expect(confirmed.status == .ok)
            #expect(try await client.signIn("ada@example.com", password: "ada-password-1").status == .ok)
            _ = test
        }
    }

    /// A session that reached an unconfirmed account some other way (made
    /// before this server required confirmation) ends when the mailbox proves itself.
    @Test func redeemingACodeEndsTheUnconfirmedAccountsSessions() async throws {
        try await Self.run { test, client, mail in
            _ = try await Self.signUp(client, "victim@example.com", "attacker-password-1")
            _ = try await mail.next()
            let user = try #require(try await test.server.store.user(email: "victim@example.com"))
            let (_, refreshToken) = try await test.server.store.createSession(
                userID: user.id, userAgent: "attacker", ip: nil, now: test.clock.now, refreshTokenTTL: 3600,
                absoluteTTL: 86_400, method: "password")
            #expect(try await client.refresh(refreshToken).status == .ok)
            await test.clock.advance(by: 61)
            _ = try await client.requestCode("victim@example.com")
            let code = try #require(try await mail.next().code)
            #expect(try await client.verify(type: "magiclink", email: "victim@example.com", code: code).status == .ok)
            let refused = try await client.refresh(refreshToken)
            #expect(refused.status != .ok)
        }
    }

    /// GoTrue's obfuscated answer: an address that has an account gets the
    /// same answer as a new one, and a second sign-up's password is not kept.
    @Test func aSecondSignUpIsAnsweredAlikeAndKeepsNeitherPassword() async throws {
        try await Self.run { test, client, mail in
            let first = try Self.object(try await Self.signUp(client, "ada@example.com", "first-password-1"))
            _ = try await mail.next()
            await test.clock.advance(by: 61)
            let again = try await Self.signUp(client, "ada@example.com", "second-password-2")
            #expect(again.status == .ok)
            let second = try Self.object(again)
            #expect(Set(first.keys) == Set(second.keys))
            #expect(first["id"] != second["id"])
            let code = try #require(try await mail.next().code)
            #expect(try await client.verify(type: "email", email: "ada@example.com", code: code).status == .ok)
            for password in ["first-password-1", "second-password-2"] {
                #expect(try await client.signIn("ada@example.com", password: password).goTrueErrorCode == "invalid_credentials")
            }
            // A confirmed account: the same answer again, and no mail.
            await test.clock.advance(by: 61)
            let confirmed = try Self.object(try await Self.signUp(client, "ada@example.com", "third-password-3"))
            #expect(Set(confirmed.keys) == Set(first.keys))
            await #expect(throws: (any Error).self) { try await mail.next(within: 0.5) }
        }
    }

    @Test func settingsSayWhetherSignUpsAreConfirmedAtOnce() async throws {
        try await Self.run { _, client, _ in
            let settings = try Self.object(try await client.send(.get, "/auth/v1/settings"))
            #expect(settings["mailer_autoconfirm"] == .bool(false))
        }
        try await EmailTestServer.run { _, client, _ in
            let settings = try Self.object(try await client.send(.get, "/auth/v1/settings"))
            #expect(settings["mailer_autoconfirm"] == .bool(true))
            // --autoconfirm keeps today's answer: a session at once.
            #expect(try await client.signUp("ada@example.com").user?.emailConfirmedAt != nil)
        }
        let test = try await TestServer.make()
        try await test.run { client in
            let settings = try Self.object(try await client.send(.get, "/auth/v1/settings"))
            #expect(settings["mailer_autoconfirm"] == .bool(true))
        }
    }

    @Test func theAutoconfirmSwitchIsReadFromFlagAndEnvironment() throws {
        #expect(try AuthServerConfiguration.resolve(.init(), environment: [:]).autoconfirm == false)
        #expect(try AuthServerConfiguration.resolve(.init(autoconfirm: true), environment: [:]).autoconfirm)
        #expect(try AuthServerConfiguration.resolve(.init(), environment: ["AUTH_SERVER_AUTOCONFIRM": "on"]).autoconfirm)
        #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(.init(), environment: ["AUTH_SERVER_AUTOCONFIRM": "maybe"])
        }
    }
}
