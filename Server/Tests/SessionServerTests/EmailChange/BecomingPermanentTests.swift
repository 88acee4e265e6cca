import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SQLKit
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Issue 40, item 2: an anonymous user adds an email and becomes permanent,
/// with the same id, data and (with its bearer) the same session
/// (docs/ACCOUNTS.md, "Becoming permanent").
struct BecomingPermanentTests {
    @Test(arguments: TestDatabase.all)
    func anAnonymousUserConfirmsAnEmailAndKeepsItsSession(database: TestDatabase) async throws {
        try await EmailChangeTestServer.run(database) { test, client, mail in
            let anonymous = try await client.signInAnonymously()
            let id = try #require(anonymous.user?.id)
            let sessionID = try payload(of: anonymous.accessToken)["session_id"] as? String

            let pending = try await client.changeEmail("Ada@Example.com", bearer: anonymous.accessToken).decode(SessionUser.self)
            #expect(pending.email == nil)
            #expect(pending.newEmail == "ada@example.com")
            #expect(pending.emailChangeSentAt != nil)
            #expect(pending.isAnonymous == true)
            // One mail, to the new address only: an anonymous user has no other.
            let message = try await mail.next()
            #expect(message.to.address == "ada@example.com")
            let code = try #require(message.code)
            #expect(message.link?.absoluteString.contains("type=email_change") == true)

            await test.clock.advance(by: 5)
            let upgraded = try await client.verifyEmailChange("ada@example.com", code: code, bearer: anonymous.accessToken)
                .decode(TokenResponse.self)
            let user = try #require(upgraded.user)
            #expect(user.id == id)
            #expect(user.email == "ada@example.com")
            #expect(user.emailConfirmedAt != nil)
            #expect(user.isAnonymous == false)
            #expect(user.newEmail == nil)
            #expect(user.userMetadata["theme"] == "dark")
            let claims = try payload(of: upgraded.accessToken)
            #expect(claims["is_anonymous"] as? Bool == false)
            // The same session: its id kept, its refresh token swapped as a rotation swaps it.
            #expect(claims["session_id"] as? String == sessionID)
            #expect(upgraded.refreshToken != anonymous.refreshToken)
            let retried = try await client.refresh(anonymous.refreshToken).decode(TokenResponse.self)
            #expect(retried.refreshToken == upgraded.refreshToken)
            #expect(try payload(of: retried.accessToken)["is_anonymous"] as? Bool == false)

            // Then a password, and the account signs in like any other.
            let withPassword = try await client.send(
                .put, "/auth/v1/user", json: #"{"password":"correct-horse"}"#, bearer: upgraded.accessToken)
            #expect(withPassword.status == .ok)
            let signedIn = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            #expect(signedIn.user?.id == id)
        }
    }

    @Test func aLinkWithoutABearerGivesANewSessionAsGoTrue() async throws {
        try await EmailChangeTestServer.run { _, client, mail in
            let anonymous = try await client.signInAnonymously()
            _ = try await client.changeEmail("ada@example.com", bearer: anonymous.accessToken)
            let token = try #require(try await mail.next().linkToken)
            let session = try await client.verifyEmailChange(tokenHash: token).decode(TokenResponse.self)
            #expect(session.user?.isAnonymous == false)
            #expect(session.user?.id == anonymous.user?.id)
            let newSession = try payload(of: session.accessToken)["session_id"] as? String
            #expect(newSession != (try payload(of: anonymous.accessToken)["session_id"] as? String))
            // The anonymous session is not ended; it reads the new address.
            let me = try await client.send(.get, "/auth/v1/user", bearer: anonymous.accessToken).decode(SessionUser.self)
            #expect(me.email == "ada@example.com")
            #expect(me.isAnonymous == false)
            // Used once.
            #expect(try await client.verifyEmailChange(tokenHash: token).goTrueErrorCode == "otp_expired")
        }
    }

    @Test func anotherUsersBearerIsIgnored() async throws {
        try await EmailChangeTestServer.run { _, client, mail in
            let anonymous = try await client.signInAnonymously()
            let other = try await client.signUp("bob@example.com")
            _ = try await client.changeEmail("ada@example.com", bearer: anonymous.accessToken)
            let code = try #require(try await mail.next().code)
            let session = try await client.verifyEmailChange("ada@example.com", code: code, bearer: other.accessToken)
                .decode(TokenResponse.self)
            #expect(session.user?.id == anonymous.user?.id)
            let sessionID = try payload(of: session.accessToken)["session_id"] as? String
            #expect(sessionID != (try payload(of: other.accessToken)["session_id"] as? String))
            #expect(sessionID != (try payload(of: anonymous.accessToken)["session_id"] as? String))
            // Bob's session is untouched.
            #expect(try await client.refresh(other.refreshToken).status == .ok)
        }
    }

    @Test func aBearerThatDoesNotVerifyIsIgnored() async throws {
        try await EmailChangeTestServer.run { _, client, mail in
            let anonymous = try await client.signInAnonymously()
            _ = try await client.changeEmail("ada@example.com", bearer: anonymous.accessToken)
            let code = try #require(try await mail.next().code)
            let session = try await client.verifyEmailChange("ada@example.com", code: code, bearer: "not.a.jwt")
            #expect(session.status == .ok)
            #expect(try session.decode(TokenResponse.self).user?.email == "ada@example.com")
        }
    }

    @Test func anAnonymousPasswordWithoutAnEmailIsRefusedAsGoTrue() async throws {
        try await EmailChangeTestServer.run { _, client, _ in
            let anonymous = try await client.signInAnonymously()
            let refused = try await client.send(
                .put, "/auth/v1/user", json: #"{"password":"correct-horse"}"#, bearer: anonymous.accessToken)
            #expect(refused.status.code == 422)
            #expect(refused.goTrueErrorCode == "validation_failed")
            #expect(refused.text.contains("Updating password of an anonymous user without an email or phone is not allowed"))
            // The session stays.
            #expect(try await client.refresh(anonymous.refreshToken).status == .ok)
        }
    }

    @Test func theLinkPageConfirmsInABrowserWithoutAnApp() async throws {
        try await EmailChangeTestServer.run { test, client, mail in
            let anonymous = try await client.signInAnonymously()
            _ = try await client.changeEmail("ada@example.com", bearer: anonymous.accessToken)
            let token = try #require(try await mail.next().linkToken)
            // The GET changes nothing: a mail scanner spends no link.
            let page = try await client.send(.get, "/auth/v1/verify?token=\(token)&type=email_change")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"name="type" value="email_change""#))
            let before = try await client.send(.get, "/auth/v1/user", bearer: anonymous.accessToken).decode(SessionUser.self)
            #expect(before.email == nil)
            let posted = try await client.executeRequest(
                uri: "/auth/v1/verify", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"],
                body: ByteBuffer(string: "token=\(token)&type=email_change"))
            #expect(posted.status == .ok)
            #expect(posted.text.contains("ada@example.com"))
            let after = try await client.send(.get, "/auth/v1/user", bearer: anonymous.accessToken).decode(SessionUser.self)
            #expect(after.email == "ada@example.com")
            // No session nobody would receive: the anonymous one is the user's only session.
            let count = try await test.server.store.withTransaction { db in
                try await db.raw("SELECT COUNT(*) AS n FROM sessions").first()?.decode(column: "n", as: Int.self)
            }
            #expect(count == 1)
        }
    }
}
