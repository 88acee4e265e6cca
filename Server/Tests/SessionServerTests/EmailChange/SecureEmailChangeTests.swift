import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SQLKit
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Issue 40, item 4: GoTrue's secure email change, both addresses confirmed
/// (docs/ACCOUNTS.md, "A confirmed email change (server)").
struct SecureEmailChangeTests {
    @Test(arguments: TestDatabase.all)
    func bothAddressesConfirmAndTheSameSessionGetsTheNewAddress(database: TestDatabase) async throws {
        try await EmailChangeTestServer.run(database) { test, client, mail in
            let ada = try await client.signUp("ada@example.com")
            let phone = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let sessionID = try payload(of: ada.accessToken)["session_id"] as? String

            let answer = try await client.changeEmail("new@example.com", bearer: ada.accessToken).decode(SessionUser.self)
            #expect(answer.email == "ada@example.com")
            #expect(answer.newEmail == "new@example.com")
            #expect(answer.emailChangeSentAt != nil)
            let mails = try await mail.next(2)
            let newCode = try #require(mails["new@example.com"]?.code)
            let currentCode = try #require(mails["ada@example.com"]?.code)
            #expect(newCode != currentCode)
            // Stored as the other email codes are: hashes only, the link's as its SHA-256.
            let rows = try await test.server.store.withTransaction { db in
                try await db.raw("SELECT email, code_hash, link_hash FROM email_change_codes").all().map {
                    [try $0.decode(column: "email", as: String.self), try $0.decode(column: "code_hash", as: String.self),
                     try $0.decode(column: "link_hash", as: String.self)]
                }
            }
            #expect(rows.count == 2)
            #expect(rows.allSatisfy { !$0[1].contains(newCode) && !$0[1].contains(currentCode) && $0[1].count == 64 })
            let linkHash = SHA256Hex.of(try #require(mails["new@example.com"]?.linkToken))
            #expect(rows.contains { $0[0] == "new@example.com" && $0[2] == linkHash })

            // The first confirmation: GoTrue's exact answer, nothing changed yet.
            let first = try await client.verifyEmailChange("new@example.com", code: newCode, bearer: ada.accessToken)
            #expect(first.status == .ok)
            #expect(first.text == singleConfirmationBody)
            let between = try await client.send(.get, "/auth/v1/user", bearer: ada.accessToken).decode(SessionUser.self)
            #expect(between.email == "ada@example.com")
            #expect(between.newEmail == "new@example.com")

            // The second: the address changes, and the bearer's own session answers.
            await test.clock.advance(by: 3)
            let final = try await client.verifyEmailChange("ada@example.com", code: currentCode, bearer: ada.accessToken)
                .decode(TokenResponse.self)
            #expect(final.user?.email == "new@example.com")
            #expect(final.user?.newEmail == nil)
            #expect(try payload(of: final.accessToken)["session_id"] as? String == sessionID)
            #expect(try payload(of: final.accessToken)["email"] as? String == "new@example.com")
            // Within the grace, the old refresh token gets the successor; the family goes on.
            await test.clock.advance(by: SessionDefaults.refreshReuseGrace / 2)
            let retried = try await client.refresh(ada.refreshToken).decode(TokenResponse.self)
            #expect(retried.refreshToken == final.refreshToken)
            #expect(try await client.refresh(final.refreshToken).status == .ok)

            // The other session is not ended; it reads the new address.
            let other = try await client.send(.get, "/auth/v1/user", bearer: phone.accessToken).decode(SessionUser.self)
            #expect(other.email == "new@example.com")
            #expect(try await client.refresh(phone.refreshToken).status == .ok)
            // Signing in follows the address.
            #expect(try await client.signIn("new@example.com", password: "correct-horse").status == .ok)
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .badRequest)
            // Audited as other account changes.
            let actions = try await test.server.store.withTransaction { db in
                try await db.raw("SELECT action FROM audit_log ORDER BY created_at").all().map { try $0.decode(column: "action", as: String.self) }
            }
            #expect(actions.contains("email_change_requested"))
            #expect(actions.contains("email_changed"))
        }
    }

    @Test func theLinksReturnToTheAppAsGoTruesVerifyGet() async throws {
        try await EmailChangeTestServer.run { _, client, mail in
            let ada = try await client.signUp("ada@example.com")
            let redirect = EmailTestServer.redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            _ = try await client.send(.put, "/auth/v1/user?redirect_to=\(redirect)", json: #"{"email":"new@example.com"}"#, bearer: ada.accessToken)
            let mails = try await mail.next(2)
            for (index, address) in ["new@example.com", "ada@example.com"].enumerated() {
                let link = try #require(mails[address]?.link?.absoluteString)
                #expect(link.contains("redirect_to="))
                let token = try #require(mails[address]?.linkToken)
                let posted = try await client.executeRequest(
                    uri: "/auth/v1/verify", method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"],
                    body: ByteBuffer(string: "token=\(token)&type=email_change&redirect_to=\(redirect)"))
                #expect(posted.status == .seeOther)
                let location = try #require(posted.headers[.location])
                #expect(location.hasPrefix(EmailTestServer.redirect + "#"))
                if index == 0 {
                    #expect(location.contains("message=Confirmation"))
                    #expect(!location.contains("access_token"))
                } else {
                    #expect(location.contains("access_token="))
                    #expect(location.contains("type=email_change"))
                }
            }
            let me = try await client.send(.get, "/auth/v1/user", bearer: ada.accessToken).decode(SessionUser.self)
            #expect(me.email == "new@example.com")
        }
    }

    @Test func theOldRefreshTokenPastTheGraceIsAReuse() async throws {
        try await EmailChangeTestServer.run { test, client, mail in
            let ada = try await client.signUp("ada@example.com")
            _ = try await client.changeEmail("new@example.com", bearer: ada.accessToken)
            let mails = try await mail.next(2)
            _ = try await client.verifyEmailChange("new@example.com", code: try #require(mails["new@example.com"]?.code))
            let final = try await client.verifyEmailChange(
                "ada@example.com", code: try #require(mails["ada@example.com"]?.code), bearer: ada.accessToken
            ).decode(TokenResponse.self)
            await test.clock.advance(by: SessionDefaults.refreshReuseGrace + 1)
            #expect(try await client.refresh(ada.refreshToken).goTrueErrorCode == "refresh_token_already_used")
            #expect(try await client.refresh(final.refreshToken).goTrueErrorCode == "refresh_token_already_used")
        }
    }

    @Test func resendMailsNewCodesAndVoidsTheOld() async throws {
        try await EmailChangeTestServer.run { test, client, mail in
            let ada = try await client.signUp("ada@example.com")
            _ = try await client.changeEmail("new@example.com", bearer: ada.accessToken)
            let old = try await mail.next(2)
            // Within the minute: the address's mail limit, as every email.
            let early = try await client.resendEmailChange("ada@example.com")
            #expect(early.status == .tooManyRequests)
            #expect(early.goTrueErrorCode == "over_email_send_rate_limit")
            await test.clock.advance(by: 61)
            let resent = try await client.resendEmailChange("ada@example.com")
            #expect(resent.status == .ok)
            #expect(resent.text == "{}")
            let fresh = try await mail.next(2)
            let oldCode = try #require(old["new@example.com"]?.code)
            let freshCode = try #require(fresh["new@example.com"]?.code)
            if oldCode != freshCode {
                #expect(try await client.verifyEmailChange("new@example.com", code: oldCode).status == .forbidden)
            }
            #expect(try await client.verifyEmailChange("new@example.com", code: freshCode).text == singleConfirmationBody)
            // An address with nothing pending: the same answer, no mail.
            #expect(try await client.resendEmailChange("nobody@example.com").text == "{}")
        }
    }
}
