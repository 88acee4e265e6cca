import Foundation
import HTTPTypes
import NIOCore
import SQLKit
import Hummingbird
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Attacks on second factors (issue 38, item 12): each is refused, and none ends the session.
struct FactorAttackTests {
    @Test(arguments: TestDatabase.all)
    func aReplayedCodeIsRefusedForTheRestOfItsWindow(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let (factor, aal2) = try await client.enrollAndVerify(session.accessToken, at: test.clock.now)
            let code = factor.code(at: test.clock.now)
            // Seen over a shoulder: the same code, a new challenge, in the same step and the next.
            for _ in 0..<2 {
                let challenge = try await client.challengeID(factor.id, bearer: aal2.accessToken)
                let replay = try await client.verify(factor.id, challenge: challenge, code: code, bearer: aal2.accessToken)
                #expect(replay.status == .unprocessableContent)
                #expect(replay.goTrueErrorCode == "mfa_verification_failed")
                await test.clock.advance(by: 30)
            }
            // The next code works: only the spent one was refused.
            let challenge = try await client.challengeID(factor.id, bearer: aal2.accessToken)
            let fresh = try await client.verify(factor.id, challenge: challenge, code: factor.code(at: test.clock.now), bearer: aal2.accessToken)
            #expect(fresh.status == .ok)
        }
    }

    @Test func aChallengeIsAnsweredOnce() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let factor = try await client.enroll(session.accessToken)
            let challenge = try await client.challengeID(factor.id, bearer: session.accessToken)
            let first = try await client.verify(factor.id, challenge: challenge, code: factor.code(at: test.clock.now), bearer: session.accessToken)
            #expect(first.status == .ok)
            await test.clock.advance(by: 30)
            let second = try await client.verify(factor.id, challenge: challenge, code: factor.code(at: test.clock.now), bearer: session.accessToken)
            #expect(second.goTrueErrorCode == "mfa_challenge_expired")
        }
    }

    @Test func aCodeOfAnotherFactorIsRefused() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let phone = try await client.enroll(session.accessToken, name: "phone")
            let tablet = try await client.enroll(session.accessToken, name: "tablet")
            let challenge = try await client.challengeID(phone.id, bearer: session.accessToken)
            let wrong = try await client.verify(phone.id, challenge: challenge, code: tablet.code(at: test.clock.now), bearer: session.accessToken)
            #expect(wrong.goTrueErrorCode == "mfa_verification_failed")
            // Nor does a challenge of one factor open another.
            let crossed = try await client.verify(tablet.id, challenge: challenge, code: tablet.code(at: test.clock.now), bearer: session.accessToken)
            #expect(crossed.goTrueErrorCode == "mfa_factor_not_found")
        }
    }

    @Test func anotherUsersFactorAndChallengeAreUnknown() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let ada = try await client.signUp("ada@example.com")
            let eve = try await client.signUp("eve@example.com")
            let adas = try await client.enroll(ada.accessToken)
            let eves = try await client.enroll(eve.accessToken)
            let challenge = try await client.challenge(adas.id, bearer: eve.accessToken)
            #expect(challenge.status == .notFound)
            #expect(challenge.goTrueErrorCode == "mfa_factor_not_found")
            let adasChallenge = try await client.challengeID(adas.id, bearer: ada.accessToken)
            // Ada's challenge and code, on Eve's session: neither through Ada's factor nor through Eve's.
            let throughAda = try await client.verify(adas.id, challenge: adasChallenge, code: adas.code(at: test.clock.now), bearer: eve.accessToken)
            #expect(throughAda.status == .notFound)
            let throughEve = try await client.verify(eves.id, challenge: adasChallenge, code: adas.code(at: test.clock.now), bearer: eve.accessToken)
            #expect(throughEve.goTrueErrorCode == "mfa_factor_not_found")
            #expect(try await client.send(.delete, "/auth/v1/factors/\(adas.id)", bearer: eve.accessToken).status == .notFound)
            #expect(try await client.send(.get, "/auth/v1/user", bearer: ada.accessToken).decode(SessionUser.self).factors?.count == 1)
        }
    }

    @Test func anExpiredChallengeIsRefusedEvenWithTheRightCode() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let factor = try await client.enroll(session.accessToken)
            let challenge = try await client.challengeID(factor.id, bearer: session.accessToken)
            await test.clock.advance(by: 300)
            let late = try await client.verify(factor.id, challenge: challenge, code: factor.code(at: test.clock.now), bearer: session.accessToken)
            #expect(late.status == .unprocessableContent)
            #expect(late.goTrueErrorCode == "mfa_challenge_expired")
        }
    }

    @Test func guessingStopsAtTheAccountsBudgetEvenForTheRightCode() async throws {
        let test = try await TestServer.make { $0.emailCodeGuessesPerHourPerAddress = 5 }
        try await test.run { client in
            let session = try await client.signUp()
            let factor = try await client.enroll(session.accessToken)
            let challenge = try await client.challengeID(factor.id, bearer: session.accessToken)
            for _ in 0..<5 {
                let wrong = try await client.verify(factor.id, challenge: challenge, code: factor.wrongCode(at: test.clock.now), bearer: session.accessToken)
                #expect(wrong.goTrueErrorCode == "mfa_verification_failed")
            }
            let right = try await client.verify(factor.id, challenge: challenge, code: factor.code(at: test.clock.now), bearer: session.accessToken)
            #expect(right.status == .tooManyRequests)
            // The budget is the account's: it holds whichever session guesses, and the session stays.
            #expect(try await client.send(.get, "/auth/v1/user", bearer: session.accessToken).status == .ok)
        }
    }

    @Test func anAAL1TokenOnAnAAL2RouteGetsMFARequiredAndKeepsItsSession() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let router = Router(context: AuthRequestContext.self)
            router.group("v1").add(middleware: test.server.authMiddleware.requiringAAL2())
                .get("payouts") { _, _ in "paid" }
            let (_, aal2) = try await client.enrollAndVerify(session.accessToken, at: test.clock.now)
            let aal1 = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            try await Application(router: router).test(.router) { app in
                let refused = try await app.send(.get, "/v1/payouts", bearer: aal1.accessToken)
                #expect(refused.status == .forbidden)
                #expect(refused.gatewayCode == "MFA_REQUIRED")
                #expect(refused.headers[.wwwAuthenticate] == nil)
                let allowed = try await app.send(.get, "/v1/payouts", bearer: aal2.accessToken)
                #expect(allowed.status == .ok)
                // An ended session is SESSION_EXPIRED there, never a step-up.
                await test.clock.advance(by: 4000)
                #expect(try await app.send(.get, "/v1/payouts", bearer: aal1.accessToken).gatewayCode == "SESSION_EXPIRED")
            }
        }
    }

    @Test func anAAL1SessionCannotRemoveAVerifiedFactor() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let (factor, _) = try await client.enrollAndVerify(session.accessToken, at: test.clock.now)
            // A stolen password, without the phone.
            let thief = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let removal = try await client.send(.delete, "/auth/v1/factors/\(factor.id)", bearer: thief.accessToken)
            #expect(removal.goTrueErrorCode == "insufficient_aal")
            let enrol = try await client.send(.post, "/auth/v1/factors", json: #"{"factor_type":"totp"}"#, bearer: thief.accessToken)
            #expect(enrol.goTrueErrorCode == "insufficient_aal")
            #expect(try await test.server.store.factors(userID: try #require(thief.user?.id)).map(\.id) == [factor.id])
        }
    }

    @Test func enrolmentEndsTheOtherSessionsThatNeverProvedTheFactor() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let owner = try await client.signUp()
            let earlier = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            _ = try await client.enrollAndVerify(owner.accessToken, at: test.clock.now)
            let refresh = try await client.refresh(earlier.refreshToken)
            #expect(refresh.goTrueErrorCode == "refresh_token_not_found")
        }
    }
}

/// The sample API's own AAL2 route: deleting an account with a verified factor.
struct AccountDeletionStepUpTests {
    @Test func deletingAnEnrolledAccountAtAAL1GetsMFARequired() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let (_, aal2) = try await client.enrollAndVerify(session.accessToken, at: test.clock.now)
            let aal1 = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let refused = try await client.send(.delete, "/v1/auth/me", json: #"{"current_password":"correct-horse"}"#, bearer: aal1.accessToken)
            #expect(refused.status == .forbidden)
            #expect(refused.gatewayCode == "MFA_REQUIRED")
            #expect(try await client.send(.get, "/v1/auth/me", bearer: aal1.accessToken).status == .ok)
            let deleted = try await client.send(.delete, "/v1/auth/me", json: #"{"current_password":"correct-horse"}"#, bearer: aal2.accessToken)
            #expect(deleted.status == .ok)
            let factors = try await test.server.store.withTransaction { db in try await db.raw("SELECT id FROM mfa_factors").all().count }
            #expect(factors == 0)
        }
    }
}

/// The account page signs in with one factor: for a person with a verified factor it
/// must not become the way around it (a stolen password changing the password there).
struct AccountPageStepUpTests {
    @Test func thePasswordAloneCannotChangeAnEnrolledAccountOnThePage() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            _ = try await client.enrollAndVerify(session.accessToken, at: test.clock.now)
            let signedIn = try await WebConsoleTests.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")
            // The password opens the code step only (docs/MFA.md, "The account page").
            #expect(signedIn.headers[.location] == "/account/factor-step")
            let cookie = try #require(WebConsoleTests.cookie(signedIn))
            let page = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
            #expect(WebConsoleTests.csrf(page) == nil)
            let step = try await client.executeRequest(uri: "/account/factor-step", method: .get, headers: [.cookie: cookie], body: nil)
            let csrf = try #require(WebConsoleTests.csrf(step))
            let change = try await WebConsoleTests.form(
                client, "/account/password", "csrf=\(csrf)&current_password=correct-horse&password=stolen-and-changed", cookie: cookie)
            #expect(change.status == .forbidden)
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .ok)
            #expect(try await client.signIn("ada@example.com", password: "stolen-and-changed").status != .ok)
        }
    }
}
