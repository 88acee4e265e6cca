import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Issue 40, item 9: an email change can neither take another account's
/// address, nor skip a confirmation, nor be guessed, nor be made by a stolen
/// token alone (docs/ACCOUNTS.md, "A confirmed email change (server)").
struct EmailChangeAttackTests {
    @Test(arguments: TestDatabase.all)
    func anAddressAnotherAccountHoldsIsRefusedAndNothingMerges(database: TestDatabase) async throws {
        try await EmailChangeTestServer.run(database) { _, client, mail in
            let bob = try await client.signUp("bob@example.com")
            let ada = try await client.signUp("ada@example.com")
            let anonymous = try await client.signInAnonymously()
            for bearer in [ada.accessToken, anonymous.accessToken] {
                let refused = try await client.changeEmail("Bob@Example.com", bearer: bearer)
                #expect(refused.status.code == 422)
                #expect(refused.goTrueErrorCode == "email_exists")
                #expect(refused.text.contains("A user with this email address has already been registered"))
            }
            let me = try await client.send(.get, "/auth/v1/user", bearer: ada.accessToken).decode(SessionUser.self)
            #expect(me.email == "ada@example.com")
            #expect(me.newEmail == nil)
            // Nothing was mailed, and Bob's account is his alone.
            let sent = try await client.send(.post, "/auth/v1/otp", json: #"{"email":"probe@example.com"}"#)
            #expect(sent.status == .ok)
            #expect(try await mail.next().to.address == "probe@example.com")
            #expect(try await client.refresh(bob.refreshToken).status == .ok)
        }
    }

    @Test func anAddressTakenMeanwhileIsRefusedAtTheLastConfirmation() async throws {
        try await EmailChangeTestServer.run { _, client, mail in
            let anonymous = try await client.signInAnonymously()
            _ = try await client.changeEmail("new@example.com", bearer: anonymous.accessToken)
            let code = try #require(try await mail.next().code)
            let owner = try await client.signUp("new@example.com")
            let refused = try await client.verifyEmailChange("new@example.com", code: code, bearer: anonymous.accessToken)
            #expect(refused.goTrueErrorCode == "email_exists")
            let me = try await client.send(.get, "/auth/v1/user", bearer: anonymous.accessToken).decode(SessionUser.self)
            #expect(me.email == nil)
            #expect(me.isAnonymous == true)
            #expect(me.newEmail == nil)
            let theirs = try await client.send(.get, "/auth/v1/user", bearer: owner.accessToken).decode(SessionUser.self)
            #expect(theirs.id != me.id)
        }
    }

    @Test func theNewAddressAloneChangesNothing() async throws {
        try await EmailChangeTestServer.run { _, client, mail in
            let ada = try await client.signUp("ada@example.com")
            _ = try await client.changeEmail("thief@example.com", bearer: ada.accessToken)
            let mails = try await mail.next(2)
            // The code and the link of the new address, both: still one confirmation of two.
            let first = try await client.verifyEmailChange(
                "thief@example.com", code: try #require(mails["thief@example.com"]?.code), bearer: ada.accessToken)
            #expect(first.text == singleConfirmationBody)
            let me = try await client.send(.get, "/auth/v1/user", bearer: ada.accessToken).decode(SessionUser.self)
            #expect(me.email == "ada@example.com")
            #expect(try await client.signIn("thief@example.com", password: "correct-horse").status == .badRequest)
            // The new address's link is spent with its code: it cannot count twice.
            let link = try #require(mails["thief@example.com"]?.linkToken)
            #expect(try await client.verifyEmailChange(tokenHash: link).goTrueErrorCode == "otp_expired")
        }
    }

    @Test func wrongAndReplayedCodesAreRefusedAndUseUpTheCode() async throws {
        try await EmailChangeTestServer.run { _, client, mail in
            let anonymous = try await client.signInAnonymously()
            _ = try await client.changeEmail("ada@example.com", bearer: anonymous.accessToken)
            let code = try #require(try await mail.next().code)
            let wrong = code == "000000" ? "000001" : "000000"
            for _ in 0..<5 {
                let refused = try await client.verifyEmailChange("ada@example.com", code: wrong)
                #expect(refused.status == .forbidden)
                #expect(refused.goTrueErrorCode == "otp_expired")
            }
            // The fifth wrong guess ended the code: the right one is refused now.
            #expect(try await client.verifyEmailChange("ada@example.com", code: code).goTrueErrorCode == "otp_expired")
            #expect(try await client.verifyEmailChange("ada@example.com", code: "12345").status == .forbidden)
        }
    }

    @Test func aRedeemedCodeIsSpent() async throws {
        try await EmailChangeTestServer.run { _, client, mail in
            let anonymous = try await client.signInAnonymously()
            _ = try await client.changeEmail("ada@example.com", bearer: anonymous.accessToken)
            let code = try #require(try await mail.next().code)
            #expect(try await client.verifyEmailChange("ada@example.com", code: code).status == .ok)
            #expect(try await client.verifyEmailChange("ada@example.com", code: code).goTrueErrorCode == "otp_expired")
        }
    }

    @Test func codesExpireLikeTheOtherEmailCodes() async throws {
        try await EmailChangeTestServer.run { test, client, mail in
            let anonymous = try await client.signInAnonymously()
            _ = try await client.changeEmail("ada@example.com", bearer: anonymous.accessToken)
            let code = try #require(try await mail.next().code)
            await test.clock.advance(by: test.server.configuration.emailCodeLifetime + 1)
            #expect(try await client.verifyEmailChange("ada@example.com", code: code).goTrueErrorCode == "otp_expired")
        }
    }

    @Test func anAAL1SessionOfAnEnrolledUserIsRefused() async throws {
        try await EmailChangeTestServer.run { test, client, mail in
            let ada = try await client.signUp("ada@example.com")
            _ = try await client.enrollAndVerify(ada.accessToken, at: test.clock.now)
            let aal1 = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let refused = try await client.changeEmail("new@example.com", bearer: aal1.accessToken)
            #expect(refused.status.code == 401)
            #expect(refused.goTrueErrorCode == "insufficient_aal")
            // A step-up, never an end: the session stays.
            #expect(try await client.refresh(aal1.refreshToken).status == .ok)
            let sent = try await client.send(.post, "/auth/v1/otp", json: #"{"email":"probe@example.com"}"#)
            #expect(sent.status == .ok)
            #expect(try await mail.next().to.address == "probe@example.com")
        }
    }

    @Test func aChangeWithoutProofOfPresenceIsRefused() async throws {
        try await EmailChangeTestServer.run { test, client, mail in
            let ada = try await client.signUp("ada@example.com")
            // A token of a session signed in long ago (stolen, say): a change needs the password, as a new password does.
            await test.clock.advance(by: test.server.configuration.reauthenticationWindow + 60)
            let refreshed = try await client.refresh(ada.refreshToken).decode(TokenResponse.self)
            let refused = try await client.changeEmail("new@example.com", bearer: refreshed.accessToken)
            #expect(refused.goTrueErrorCode == "reauthentication_needed")
            let wrong = try await client.changeEmail(
                "new@example.com", bearer: refreshed.accessToken, extra: #""current_password":"wrong-horse""#)
            #expect(wrong.goTrueErrorCode == "current_password_mismatch")
            let proven = try await client.changeEmail(
                "new@example.com", bearer: refreshed.accessToken, extra: #""current_password":"correct-horse""#)
            #expect(proven.status == .ok)
            #expect(try await mail.next(2).count == 2)
        }
    }

    @Test func anAnonymousUserCannotVerifyOrResendForAnAddressItDoesNotHold() async throws {
        try await EmailChangeTestServer.run { test, client, mail in
            let bob = try await client.signUp("bob@example.com")
            _ = try await client.changeEmail("bob.new@example.com", bearer: bob.accessToken)
            _ = try await mail.next(2)
            let anonymous = try await client.signInAnonymously()
            // Guessing at Bob's pending address spends that address's guessing budget and changes nothing.
            let guessed = try await client.verifyEmailChange("bob.new@example.com", code: "123456", bearer: anonymous.accessToken)
            #expect(guessed.status == .forbidden)
            let me = try await client.send(.get, "/auth/v1/user", bearer: anonymous.accessToken).decode(SessionUser.self)
            #expect(me.email == nil)
            #expect(me.newEmail == nil)
            await test.clock.advance(by: 61)
            // A resend naming Bob's pending address with the anonymous bearer: not the anonymous user's, so nothing.
            #expect(try await client.resendEmailChange("bob.new@example.com", bearer: anonymous.accessToken).text == "{}")
            // The only mail that follows is the probe's: nothing went to anyone for the anonymous user.
            _ = try await client.send(.post, "/auth/v1/otp", json: #"{"email":"probe@example.com"}"#)
            #expect(try await mail.next().to.address == "probe@example.com")
        }
    }

    @Test func theServersMailBudgetApplies() async throws {
        try await EmailChangeTestServer.run(configure: { $0.mailsPerMinutePerDomain = 1 }) { _, client, mail in
            let first = try await client.signInAnonymously()
            let second = try await client.signInAnonymously()
            #expect(try await client.changeEmail("one@example.com", bearer: first.accessToken).status == .ok)
            #expect(try await mail.next().to.address == "one@example.com")
            // The domain's budget is spent: the answer is the same, and no mail leaves.
            #expect(try await client.changeEmail("two@example.com", bearer: second.accessToken).status == .ok)
            // Another domain's budget is its own: the next mail is this one, not the dropped one.
            let third = try await client.signInAnonymously()
            #expect(try await client.changeEmail("three@other.example", bearer: third.accessToken).status == .ok)
            #expect(try await mail.next().to.address == "three@other.example")
        }
    }
}
