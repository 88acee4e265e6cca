import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// `sendEmailCode`/`verifyEmailCode` and `sendPasswordReset`/`completePasswordReset`
/// against the fake: typed errors, and a session stored only when a code worked.
struct EmailCodeClientTests {
    @Test func aCodeSignsInAndStoresTheSession() async throws {
        let f = await Fixture.make()
        try await f.client.sendEmailCode(to: "Ada@Example.com")
        let code = try #require(await f.fake.emailCode(sentTo: "ada@example.com"))
        // Typed with a space, as people copy codes from an email.
        let session = try await f.client.verifyEmailCode(email: "ada@example.com", code: code.prefix(3) + " " + code.dropFirst(3))
        #expect(session.user?.email == "ada@example.com")
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
        #expect(await f.fake.count(.verify) == 1)
    }

    @Test func aWrongCodeIsCodeInvalidAndStoresNothing() async throws {
        let f = await Fixture.make()
        try await f.client.sendEmailCode(to: "ada@example.com")
        let code = try #require(await f.fake.emailCode(sentTo: "ada@example.com"))
        let wrong = code == "000000" ? "000001" : "000000"
        let error = await #expect(throws: SessionError.self) {
            try await f.client.verifyEmailCode(email: "ada@example.com", code: wrong)
        }
        #expect(error == .codeInvalid)
        #expect(error?.status == 403)
        #expect(try await f.store.load()?.holdsSession != true)
        if case .signedIn = f.client.currentState { Issue.record("signed in with a wrong code") }
    }

    @Test func aResetSetsTheNewPasswordAndKeepsThisSession() async throws {
        let f = await Fixture.make()
        await f.fake.createUser(email: "ada@example.com", password: "old-password")
        let other = try #require(await f.fake.issueSession(email: "ada@example.com"))
        try await f.client.sendPasswordReset(to: "ada@example.com")
        let code = try #require(await f.fake.emailCode(sentTo: "ada@example.com"))
        // A reset code does not sign in as a sign-in code.
        await #expect(throws: SessionError.codeInvalid) { try await f.client.verifyEmailCode(email: "ada@example.com", code: code) }
        let session = try await f.client.completePasswordReset(email: "ada@example.com", code: code, newPassword: "new-password")
        #expect(f.client.currentState == .signedIn(session))
        #expect(await f.fake.isFamilyActive(refreshToken: other.refreshToken) == false)
        #expect(await f.fake.isFamilyActive(refreshToken: session.refreshToken))
        #expect(await f.fake.count(.updateUser) == 1)
    }

    @Test func aRefusedNewPasswordLeavesThePersonSignedInToTryAgain() async throws {
        let f = await Fixture.make()
        await f.fake.createUser(email: "ada@example.com", password: "old-password")
        try await f.client.sendPasswordReset(to: "ada@example.com")
        let code = try #require(await f.fake.emailCode(sentTo: "ada@example.com"))
        let error = await #expect(throws: SessionError.self) {
            try await f.client.completePasswordReset(email: "ada@example.com", code: code, newPassword: "short")
        }
        #expect(error == .invalidRequest)
        #expect(error?.message.contains("8 characters") == true)
        guard case .signedIn = f.client.currentState else {
            Issue.record("the reset code's session was lost")
            return
        }
        try await f.client.updatePassword("long-enough-now")
    }

    @Test func serverAnswersBecomeTypedErrors() async throws {
        let f = await Fixture.make()
        await f.fake.inject(
            .goTrueError(status: 429, code: .overEmailSendRateLimit, message: "For security purposes, you can only request this after 60 seconds."),
            on: .otp)
        let limited = await #expect(throws: SessionError.self) { try await f.client.sendEmailCode(to: "ada@example.com") }
        #expect(limited == .rateLimited)
        #expect(limited?.message.contains("60 seconds") == true)
        await f.fake.inject(
            .goTrueError(status: 422, code: .emailProviderDisabled, message: "Email codes are not available."), on: .recover)
        await #expect(throws: SessionError.unsupported) { try await f.client.sendPasswordReset(to: "ada@example.com") }
        // A gateway's HTML page in front of /verify: a failed request, not a signed-in state or a crash.
        await f.fake.inject(.status(502, body: Data("<html>Bad gateway</html>".utf8)), on: .verify)
        await #expect(throws: SessionError.server) { try await f.client.verifyEmailCode(email: "ada@example.com", code: "123456") }
    }

    @Test func aCustomBackendSaysUnsupportedWithoutARequest() throws {
        let backend = CustomBackend(
            refreshURL: URL(string: "https://api.example.com/refresh")!, meURL: URL(string: "https://api.example.com/me")!)
        for operation: BackendOperation in [
            .sendEmailCode(EmailCodeRequest(email: "a@example.com")), .verifyEmailCode(VerifyRequest(type: "email")),
            .sendPasswordReset(PasswordResetRequest(email: "a@example.com")), .updatePassword(PasswordUpdate(password: "p")),
        ] {
            #expect(throws: SessionError.unsupported) { try backend.request(for: operation) }
        }
    }
}

/// A banned account (GoTrue's `user_banned`) is `accountSuspended`, never "wrong password".
struct BannedAccountClientTests {
    @Test func aBannedSignInIsAccountSuspended() async throws {
        let f = await Fixture.make()
        await f.fake.createUser(email: "ada@example.com", password: "secret-123")
        await f.fake.inject(.goTrueError(status: 400, code: .userBanned, message: "User is banned"), on: .passwordGrant)
        let error = await #expect(throws: SessionError.self) {
            try await f.client.signIn(email: "ada@example.com", password: "secret-123")
        }
        #expect(error == .accountSuspended)
    }
}
