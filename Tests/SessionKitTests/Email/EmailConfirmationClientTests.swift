import Foundation
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionKit

/// "Confirm your email" (issue 29, item 1): GoTrue with confirmation on
/// answers a sign-up with the user alone, and a password sign-in with
/// `email_not_confirmed` until the mailed code is redeemed.
struct EmailConfirmationClientTests {
    @Test func aSignInBeforeConfirmationSaysWhatToDo() async throws {
        let f = await Fixture.make()
        await f.fake.createUser(email: Fixture.email, password: Fixture.password)
        await f.fake.inject(
            .goTrueError(status: 400, code: .emailNotConfirmed, message: "Email not confirmed"), on: .passwordGrant)
        let error = await #expect(throws: SessionError.self) {
            try await f.client.signIn(email: Fixture.email, password: Fixture.password)
        }
        #expect(error == .emailNotConfirmed)
        #expect(error != .invalidCredentials)
        #expect(error?.message.contains("code from the confirmation email") == true)
        #expect(error?.goTrueErrorCode == .emailNotConfirmed)
    }

    /// The body auth-server and GoTrue send: the user's fields at the top
    /// level with `confirmation_sent_at`, and no token.
    @Test func aSignUpThatWaitsForConfirmationSaysSo() async throws {
        let f = await Fixture.make()
        let body = #"""
            {"id":"0b0a7c2e-1111-4222-8333-444455556666","aud":"authenticated","role":"authenticated",
             "email":"ada@example.com","phone":"","confirmation_sent_at":"2026-11-25T22:00:00Z",
             "app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{},
             "identities":[],"created_at":"2026-11-25T22:00:00Z","updated_at":"2026-11-25T22:00:00Z"}
            """#
        await f.fake.inject(.body(Data(body.utf8)), on: .signUp)
        let result = try await f.client.signUp(email: Fixture.email, password: Fixture.password)
        guard case .confirmationRequired(let user) = result else {
            Issue.record("expected confirmationRequired, got \(result)")
            return
        }
        #expect(user.email == Fixture.email)
        #expect(user.emailConfirmedAt == nil)
    }
}
