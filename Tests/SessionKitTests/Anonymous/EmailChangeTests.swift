import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// Issue 40, items 5 and 7: an email change confirmed by code, on the fake's GoTrue
/// shapes; an anonymous person becomes permanent with the same session.
struct EmailChangeTests {
    static let newEmail = "grace@example.com"

    @Test func anAnonymousPersonConfirmsAnEmailAndKeepsTheSameSession() async throws {
        let (f, anonymous) = try await AnonymousSignInTests.anonymous()
        let userID = try #require(anonymous.user?.id)
        let pending = try await f.client.updateUser(UserAttributes(email: Self.newEmail))
        // "Confirmation sent": the address is pending, the account's address unchanged.
        #expect(pending.newEmail == Self.newEmail)
        #expect(pending.emailChangeSentAt != nil)
        #expect(pending.email == nil)
        #expect(f.client.currentState.session?.user?.newEmail == Self.newEmail)
        #expect(f.client.currentState.session?.isAnonymous == true)

        let states = StateLog(f.client)
        let code = try #require(await f.fake.emailChangeCode(sentTo: Self.newEmail))
        let result = try await f.client.verifyEmailChange(email: Self.newEmail, code: code)
        let session = try #require(result.session)
        #expect(result.isComplete)
        // The same person, the same session and refresh family; the token swapped as a verify swaps it.
        #expect(session.user?.id == userID)
        #expect(session.user?.email == Self.newEmail)
        #expect(!session.isAnonymous)
        #expect(session.sessionID == anonymous.sessionID)
        #expect(session.refreshToken != anonymous.refreshToken)
        #expect(await f.fake.isFamilyActive(refreshToken: session.refreshToken))
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.storedRefreshToken() == session.refreshToken)
        #expect(await f.fake.count(.signUp) == 1)
        #expect(await f.fake.count(.passwordGrant) == 0)
        // The state stream published the updated user once.
        // A plain sign-out is the person's own business now.
        try await f.client.signOut()
        #expect(f.client.currentState == .signedOut)
        await f.client.shutdown()
        let seen = await states.finished()
        #expect(seen.filter { $0.session?.user?.email == Self.newEmail }.count == 1)
    }

    @Test func theUpgradeKeepsTheTokenTimingAndTheFamilyRefreshes() async throws {
        let (f, anonymous) = try await AnonymousSignInTests.anonymous()
        await f.clock.advance(by: 600)
        _ = try await f.client.updateUser(UserAttributes(email: Self.newEmail))
        let code = try #require(await f.fake.emailChangeCode(sentTo: Self.newEmail))
        let upgraded = try #require(try await f.client.verifyEmailChange(email: Self.newEmail, code: code).session)
        // The successor's expiry is the server's, counted from the confirmation; nothing refreshed on the way.
        #expect(upgraded.expiresAt == anonymous.expiresAt.addingTimeInterval(600))
        #expect(upgraded.lifetime == anonymous.lifetime)
        #expect(await f.fake.count(.refresh) == 0)
        // The successor refreshes in the same family, and the new tokens say the person is not anonymous.
        let refreshed = try await f.client.refresh()
        #expect(refreshed.sessionID == anonymous.sessionID)
        #expect(!refreshed.isAnonymous)
        #expect(AnonymityClaim.of(refreshed.accessToken) == false)
    }

    @Test func aConfirmedPersonConfirmsBothAddressesInEitherOrder() async throws {
        let f = await Fixture.make()
        let before = try await f.signIn()
        _ = try await f.client.updateUser(UserAttributes(email: Self.newEmail))
        let newCode = try #require(await f.fake.emailChangeCode(sentTo: Self.newEmail))
        let currentCode = try #require(await f.fake.emailChangeCode(sentTo: Fixture.email))

        let first = try await f.client.verifyEmailChange(email: Self.newEmail, code: newCode)
        #expect(first.needsOtherConfirmation)
        #expect(first.message?.contains("Confirmation link accepted") == true)
        // Nothing changed yet: the same tokens, the old address.
        #expect(f.client.currentState.session?.refreshToken == before.refreshToken)
        #expect(f.client.currentState.session?.user?.email == Fixture.email)

        let last = try await f.client.verifyEmailChange(email: Fixture.email, code: " \(currentCode.prefix(3))-\(currentCode.dropFirst(3)) ")
        let session = try #require(last.session)
        #expect(session.user?.email == Self.newEmail)
        #expect(session.sessionID == before.sessionID)
        #expect(f.client.currentState == .signedIn(session))
    }

    @Test func aWrongCodeIsTypedAndKeepsEverything() async throws {
        let (f, anonymous) = try await AnonymousSignInTests.anonymous()
        _ = try await f.client.updateUser(UserAttributes(email: Self.newEmail))
        let code = try #require(await f.fake.emailChangeCode(sentTo: Self.newEmail))
        let wrong = code == "000000" ? "000001" : "000000"
        let error = await #expect(throws: SessionError.codeInvalid) { try await f.client.verifyEmailChange(email: Self.newEmail, code: wrong) }
        #expect(error?.goTrueErrorCode == .otpExpired)
        #expect(f.client.currentState.session?.refreshToken == anonymous.refreshToken)
        #expect(f.client.currentState.isSignedIn)
    }

    @Test func resendMailsNewCodes() async throws {
        let (f, _) = try await AnonymousSignInTests.anonymous()
        _ = try await f.client.updateUser(UserAttributes(email: Self.newEmail))
        try await f.client.resend(email: Self.newEmail, type: .emailChange)
        let again = try #require(await f.fake.emailChangeCode(sentTo: Self.newEmail))
        let result = try await f.client.verifyEmailChange(email: Self.newEmail, code: again)
        #expect(result.isComplete)
    }

    @Test func anAddressAnotherAccountHoldsIsAConflict() async throws {
        let (f, _) = try await AnonymousSignInTests.anonymous()
        await #expect(throws: SessionError.conflict) { try await f.client.updateUser(UserAttributes(email: Fixture.email)) }
        #expect(f.client.currentState.session?.isAnonymous == true)
    }

    @Test func aSignOutWhileTheCodeIsCheckedIsNotUndoneByTheAnswer() async throws {
        let (f, _) = try await AnonymousSignInTests.anonymous()
        _ = try await f.client.updateUser(UserAttributes(email: Self.newEmail))
        let code = try #require(await f.fake.emailChangeCode(sentTo: Self.newEmail))
        let gate = FakeGate()
        await f.fake.inject(.holdAnswer(gate), on: .verify)
        let verify = Task { try await f.client.verifyEmailChange(email: Self.newEmail, code: code) }
        await gate.waitForArrivals(1)
        try await f.client.signOut(discardingAnonymousAccount: true)
        await gate.open()
        let result = await verify.result
        #expect(throws: SessionError.notSignedIn) { try result.get() }
        #expect(f.client.currentState == .signedOut)
        #expect(try await f.store.load()?.holdsSession != true)
    }

    @Test func anAnswerForTheSessionBeforeASignOutNeverReplacesTheNewSignIn() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        _ = try await f.client.updateUser(UserAttributes(email: Self.newEmail))
        let code = try #require(await f.fake.emailChangeCode(sentTo: Self.newEmail))
        let currentCode = try #require(await f.fake.emailChangeCode(sentTo: Fixture.email))
        _ = try await f.client.verifyEmailChange(email: Fixture.email, code: currentCode)
        // The server completes the change for the first session; its answer is held.
        let gate = FakeGate()
        await f.fake.inject(.holdAnswer(gate), on: .verify)
        let verify = Task { try await f.client.verifyEmailChange(email: Self.newEmail, code: code) }
        await gate.waitForArrivals(1)
        try await f.client.signOut()
        let again = try await f.client.signIn(email: Self.newEmail, password: Fixture.password)
        await gate.open()
        let result = await verify.result
        #expect(throws: SessionError.notSignedIn) { try result.get() }
        #expect(f.client.currentState == .signedIn(again))
        #expect(try await f.storedRefreshToken() == again.refreshToken)
    }

    @Test func aVerifyRetriedWithTheNewSignInsTokenKeepsItsSwappedRefreshToken() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        _ = try await f.client.updateUser(UserAttributes(email: Self.newEmail))
        let code = try #require(await f.fake.emailChangeCode(sentTo: Self.newEmail))
        let currentCode = try #require(await f.fake.emailChangeCode(sentTo: Fixture.email))
        _ = try await f.client.verifyEmailChange(email: Fixture.email, code: currentCode)
        // Held before the server reads it: the first session ends and the same person signs in again meanwhile.
        let gate = FakeGate()
        await f.fake.inject(.hold(gate), on: .verify)
        let verify = Task { try await f.client.verifyEmailChange(email: Self.newEmail, code: code) }
        await gate.waitForArrivals(1)
        try await f.client.signOut()
        let again = try await f.signIn()
        await gate.open()
        // The old token is refused; the retry carries the new sign-in's token, so the server swaps *its* refresh token.
        let result = try await verify.value
        let session = try #require(result.session)
        #expect(session.sessionID == again.sessionID)
        #expect(f.client.currentState == .signedIn(session))
        // Beyond the reuse grace the swapped-out token would end the family; the client holds the successor.
        await f.clock.advance(by: SessionDefaults.refreshReuseGrace + 1)
        let refreshed = try await f.client.refresh()
        #expect(refreshed.sessionID == again.sessionID)
        #expect(await f.fake.isFamilyActive(refreshToken: refreshed.refreshToken))
    }

    @Test func neitherACodeNorATokenReachesTheLogs() async throws {
        let (f, anonymous) = try await AnonymousSignInTests.anonymous()
        _ = try await f.client.updateUser(UserAttributes(email: Self.newEmail))
        let code = try #require(await f.fake.emailChangeCode(sentTo: Self.newEmail))
        let session = try #require(try await f.client.verifyEmailChange(email: Self.newEmail, code: code).session)
        let logged = f.logs.lines.joined(separator: "\n")
        #expect(logged.contains("email change was confirmed"))
        for secret in [code, anonymous.accessToken, anonymous.refreshToken, session.accessToken, session.refreshToken] {
            #expect(!logged.contains(secret))
        }
    }

    @Test func notSignedInIsRefusedUnsent() async throws {
        let f = await Fixture.make()
        await #expect(throws: SessionError.notSignedIn) { try await f.client.verifyEmailChange(email: Self.newEmail, code: "123456") }
        #expect(await f.fake.count(.verify) == 0)
    }
}
