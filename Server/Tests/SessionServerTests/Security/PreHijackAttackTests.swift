import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 37, item 1 (an attack): the attacker signs up the victim's address
/// with their own password and metadata; the confirmation mail lands in the
/// victim's inbox. Before the fix, a victim who later signed up (or asked for
/// a sign-in code) and then redeemed that first mail, "Confirm your email",
/// confirmed the account with the attacker's password.
struct PreHijackAttackTests {
    static func attackerSignsUp(_ client: any TestClientProtocol) async throws {
        let response = try await client.send(
            .post, "/auth/v1/signup",
            json: #"{"email":"victim@example.com","password":"attacker-password-1","data":{"avatar":"https://evil.example/x.png"}}"#)
        #expect(response.status == .ok)
    }

    /// The attacker's password never opens the account, and their metadata is gone.
    static func expectNothingOfTheAttackerSurvives(_ test: TestServer, _ client: any TestClientProtocol) async throws {
        let attempt = try await client.signIn("victim@example.com", password: "attacker-password-1")
        #expect(attempt.status != .ok)
        #expect(attempt.goTrueErrorCode == "invalid_credentials")
        let user = try #require(try await test.server.store.user(email: "victim@example.com"))
        #expect(user.userMetadata["avatar"] == nil)
    }

    @Test(arguments: TestDatabase.all)
    func theAttackersFirstSignUpCodeConfirmsNothingAfterTheVictimSignsUp(database: TestDatabase) async throws {
        try await SignUpConfirmationTests.run(database) { test, client, mail in
            try await Self.attackerSignsUp(client)
            let attackersCode = try #require(try await mail.next().code)
            await test.clock.advance(by: 61)
            #expect(try await SignUpConfirmationTests.signUp(client, "victim@example.com", "victims-password-2").status == .ok)
            let victimsCode = try #require(try await mail.next().code)
            // The victim opens the first mail, the one that says "Confirm your email".
            let first = try await client.verify(type: "signup", email: "victim@example.com", code: attackersCode)
            #expect(first.status == .forbidden)
            #expect(try await test.server.store.user(email: "victim@example.com")?.emailConfirmedAt == nil)
            try await Self.expectNothingOfTheAttackerSurvives(test, client)
            // The victim's own code signs them in; still nothing of the attacker's opens the account.
            #expect(try await client.verify(type: "email", email: "victim@example.com", code: victimsCode).status == .ok)
            try await Self.expectNothingOfTheAttackerSurvives(test, client)
            #expect(try await client.signIn("victim@example.com", password: "victims-password-2").status != .ok)
        }
    }

    /// The same when the victim asks for a sign-in code (or a reset) instead of signing up.
    @Test(arguments: ["otp", "recover"])
    func anyNewCodeVoidsTheAttackersSignUpCode(route: String) async throws {
        try await SignUpConfirmationTests.run { test, client, mail in
            try await Self.attackerSignsUp(client)
            let attackersCode = try #require(try await mail.next().code)
            let asked = try await (route == "otp"
                ? client.requestCode("victim@example.com", createUser: false) : client.requestReset("victim@example.com"))
            #expect(asked.status == .ok)
            let victimsCode = try #require(try await mail.next().code)
            #expect(try await client.verify(type: "signup", email: "victim@example.com", code: attackersCode).status == .forbidden)
            let type = route == "otp" ? "email" : "recovery"
            #expect(try await client.verify(type: type, email: "victim@example.com", code: victimsCode).status == .ok)
            try await Self.expectNothingOfTheAttackerSurvives(test, client)
        }
    }
}
