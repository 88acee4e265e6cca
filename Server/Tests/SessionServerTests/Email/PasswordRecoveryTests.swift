import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SessionCore
import SessionKitTesting
import SessionServer
import Testing

/// Password reset (`/recover`, `/verify` with `type=recovery`, `PUT /user`):
/// the reset session sets a password without the old one, and every other
/// session ends with the change.
struct PasswordRecoveryTests {
    @Test(arguments: TestDatabase.all)
    func aResetCodeSetsANewPasswordAndSignsOutEveryoneElse(database: TestDatabase) async throws {
        try await EmailTestServer.run(database) { test, client, mail in
            let laptop = try await client.signUp("ada@example.com", password: "old-password-1")
            #expect(try await client.requestReset("ada@example.com").status == .ok)
            let message = try await mail.next()
            #expect(message.subject == "Reset your password")
            let code = try #require(message.code)

            // A sign-in code is not a reset code, and the refusal leaves the reset code usable.
            #expect(try await client.verify(type: "email", email: "ada@example.com", code: code).status == .forbidden)
            let reset = try await client.verify(type: "recovery", email: "ada@example.com", code: code).decode(TokenResponse.self)
            #expect(reset.user?.id == laptop.user?.id)

            // Inside the re-authentication window: no current password needed.
            let changed = try await client.send(.put, "/auth/v1/user", json: #"{"password":"new-password-2"}"#, bearer: reset.accessToken)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try await client.refresh(laptop.refreshToken).status != .ok)
            #expect(try await client.refresh(reset.refreshToken).status == .ok)
            #expect(try await client.signIn("ada@example.com", password: "old-password-1").status == .badRequest)
            #expect(try await client.signIn("ada@example.com", password: "new-password-2").status == .ok)
        }
    }

    @Test func aResetSessionPastTheWindowNeedsTheOldPassword() async throws {
        try await EmailTestServer.run { test, client, mail in
            _ = try await client.signUp("ada@example.com", password: "old-password-1")
            _ = try await client.requestReset("ada@example.com")
            let code = try #require(try await mail.next().code)
            let reset = try await client.verify(type: "recovery", email: "ada@example.com", code: code).decode(TokenResponse.self)
            await test.clock.advance(by: 601)
            let refreshed = try await client.refresh(reset.refreshToken).decode(TokenResponse.self)
            let late = try await client.send(.put, "/auth/v1/user", json: #"{"password":"new-password-2"}"#, bearer: refreshed.accessToken)
            #expect(late.goTrueErrorCode == "reauthentication_needed")
        }
    }

    @Test func anAccountWithoutAPasswordCanSetItsFirst() async throws {
        try await EmailTestServer.run(configure: { $0.emailsPerMinutePerAddress = 5 }) { _, client, mail in
            // Created by a sign-in code: no password yet.
            _ = try await client.requestCode("ada@example.com")
            let first = try #require(try await mail.next().code)
            _ = try await client.verify(type: "signup", email: "ada@example.com", code: first).decode(TokenResponse.self)
            _ = try await client.requestReset("ada@example.com")
            let code = try #require(try await mail.next().code)
            let reset = try await client.verify(type: "recovery", email: "ada@example.com", code: code).decode(TokenResponse.self)
            let set = try await client.send(.put, "/auth/v1/user", json: #"{"password":"first-password"}"#, bearer: reset.accessToken)
            #expect(set.status == .ok)
            #expect(try await client.signIn("ada@example.com", password: "first-password").status == .ok)
        }
    }
}
