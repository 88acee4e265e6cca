import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// `client.mfa` against the fake's GoTrue factors: verify establishes the
/// AAL2 session through the engine, and no refusal ends the AAL1 session.
struct MFAFlowTests {
    @Test func enrollChallengeVerifyRaisesTheSessionToAAL2AndRefreshKeepsIt() async throws {
        let f = await Fixture.make()
        let first = try await f.signIn()
        #expect(first.assurance.currentLevel == .aal1)
        #expect(first.assurance.nextLevel == .aal1)
        #expect(!first.needsSecondFactor)

        let factor = try await f.client.mfa.enroll(params: MFAEnrollParams(issuer: "Acme", friendlyName: "Ada's phone"))
        #expect(factor.type == "totp")
        #expect(factor.friendlyName == "Ada's phone")
        #expect(factor.totp?.uri.hasPrefix("otpauth://totp/Acme:") == true)
        #expect(factor.totp?.qrCode.hasPrefix("<svg") == true)
        #expect(try await f.client.mfa.listFactors().totp.isEmpty)  // unverified until a code is verified

        let code = try #require(await f.fake.totpCode(forFactor: factor.id))
        let raised = try await f.client.mfa.challengeAndVerify(factorId: factor.id, code: code)
        #expect(raised.assurance.currentLevel == .aal2)
        #expect(raised.assurance.currentAuthenticationMethods.map(\.method) == ["totp", "password"])
        #expect(raised.sessionID == first.sessionID)
        #expect(raised.refreshToken != first.refreshToken)
        // Established through the engine: current, saved, and the level the app reads.
        #expect(f.client.currentState == .signedIn(raised))
        #expect(try await f.storedRefreshToken() == raised.refreshToken)
        #expect(try await f.client.mfa.getAuthenticatorAssuranceLevel().currentLevel == .aal2)
        #expect(try await f.client.mfa.listFactors().totp.map(\.id) == [factor.id])

        // The family rules hold: the AAL2 refresh token rotates, and the new token keeps the level.
        let refreshed = try await f.client.refresh()
        #expect(refreshed.refreshToken != raised.refreshToken)
        #expect(refreshed.assurance.currentLevel == .aal2)
        #expect(await f.fake.isFamilyActive(refreshToken: refreshed.refreshToken))
    }

    @Test func aSignInWithAVerifiedFactorSaysSoAndKeepsTheAAL1Session() async throws {
        let f = await Fixture.make()
        let factorID = try #require(await f.fake.addVerifiedFactor(email: Fixture.email))
        let session = try await f.signIn()
        #expect(session.needsSecondFactor)
        #expect(session.assurance.currentLevel == .aal1)
        #expect(session.assurance.nextLevel == .aal2)
        // The AAL1 session is the session until the code comes: signed in, saved.
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.storedRefreshToken() == session.refreshToken)
        #expect(try await f.client.mfa.getAuthenticatorAssuranceLevel().needsSecondFactor)

        let code = try #require(await f.fake.totpCode(forFactor: factorID))
        let raised = try await f.client.mfa.challengeAndVerify(factorId: factorID, code: code)
        #expect(!raised.needsSecondFactor)
        #expect(f.client.currentState.session?.needsSecondFactor == false)
    }

    @Test func anEmailCodeSignInWithAVerifiedFactorSaysSoToo() async throws {
        let f = await Fixture.make()
        try #require(await f.fake.addVerifiedFactor(email: Fixture.email) != nil)
        try await f.client.sendEmailCode(to: Fixture.email)
        let code = try #require(await f.fake.emailCode(sentTo: Fixture.email))
        let session = try await f.client.verifyEmailCode(email: Fixture.email, code: code)
        #expect(session.needsSecondFactor)
        #expect(f.client.currentState == .signedIn(session))
    }

    @Test func aWrongCodeIsTypedAndTheAAL1SessionStays() async throws {
        let f = await Fixture.make()
        let factorID = try #require(await f.fake.addVerifiedFactor(email: Fixture.email))
        let session = try await f.signIn()
        let code = try #require(await f.fake.totpCode(forFactor: factorID))
        let wrong = code == "000000" ? "000001" : "000000"
        let error = await #expect(throws: SessionError.self) {
            try await f.client.mfa.challengeAndVerify(factorId: factorID, code: wrong)
        }
        #expect(error == .secondFactorCodeInvalid)
        #expect(error?.goTrueErrorCode == .mfaVerificationFailed)
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.storedRefreshToken() == session.refreshToken)
        #expect(await f.fake.count(.refresh) == 0)
        // The right code still works afterwards.
        _ = try await f.client.mfa.challengeAndVerify(factorId: factorID, code: code)
        #expect(f.client.currentState.session?.assurance.currentLevel == .aal2)
    }

    @Test func aLostVerifyAnswerKeepsTheSessionAndTheNextCodeRaisesIt() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        let factorID = try #require(await f.fake.addVerifiedFactor(email: Fixture.email))
        let session = try await f.signIn()
        await f.fake.loseNextFactorVerifyAnswer()
        let code = try #require(await f.fake.totpCode(forFactor: factorID))
        let error = await #expect(throws: SessionError.self) {
            try await f.client.mfa.challengeAndVerify(factorId: factorID, code: code)
        }
        #expect(error == .network)
        #expect(await f.fake.factorVerifyCount == 1)  // the server committed
        // Not signed out: the AAL1 session is still the session, here and in the store.
        #expect(f.client.currentState.session == session)
        #expect(try await f.storedRefreshToken() == session.refreshToken)

        // The person enters the next code: its verify raises the session the lost answer had raised.
        let next = try #require(await f.fake.totpCode(forFactor: factorID))
        let raised = try await f.client.mfa.challengeAndVerify(factorId: factorID, code: next)
        #expect(raised.assurance.currentLevel == .aal2)
        #expect(try await f.client.refresh().assurance.currentLevel == .aal2)
        #expect(await events.finish(f.client).expiredCount == 0)
    }

    @Test func aSignOutWhileTheCodeIsCheckedIsNotUndoneByTheAnswer() async throws {
        let f = await Fixture.make()
        let factorID = try #require(await f.fake.addVerifiedFactor(email: Fixture.email))
        try await f.signIn()
        let challenge = try await f.client.mfa.challenge(factorId: factorID)
        let code = try #require(await f.fake.totpCode(forFactor: factorID))
        // The factor routes are the fake's `.unknown` endpoint: hold the verify's answer.
        let gate = FakeGate()
        await f.fake.inject(.holdAnswer(gate), on: .unknown)
        let verify = Task { try await f.client.mfa.verify(factorId: factorID, challengeId: challenge.id, code: code) }
        await gate.waitForArrivals(1)
        try await f.client.signOut()
        await gate.open()
        let result = await verify.result
        #expect(throws: SessionError.notSignedIn) { try result.get() }
        #expect(f.client.currentState == .signedOut)
        #expect(try await f.store.load()?.holdsSession != true)
    }

    /// Regression: verify checked only the user id after the wait, so the answer for the session the
    /// person had signed out of replaced their new sign-in as the same person (a revoked session,
    /// whose next refresh would sign them out).
    @Test func aSignOutAndSignInAgainWhileTheCodeIsCheckedKeepsTheNewSession() async throws {
        let f = await Fixture.make()
        let factorID = try #require(await f.fake.addVerifiedFactor(email: Fixture.email))
        try await f.signIn()
        let challenge = try await f.client.mfa.challenge(factorId: factorID)
        let code = try #require(await f.fake.totpCode(forFactor: factorID))
        let gate = FakeGate()
        await f.fake.inject(.holdAnswer(gate), on: .unknown)
        let verify = Task { try await f.client.mfa.verify(factorId: factorID, challengeId: challenge.id, code: code) }
        await gate.waitForArrivals(1)
        try await f.client.signOut()
        let again = try await f.signIn()
        await gate.open()
        let result = await verify.result
        #expect(throws: SessionError.notSignedIn) { try result.get() }
        #expect(f.client.currentState == .signedIn(again))
        #expect(try await f.storedRefreshToken() == again.refreshToken)
    }

    @Test func enrollingAnotherFactorAtAAL1IsAStepUpThatKeepsTheSession() async throws {
        let f = await Fixture.make()
        let factorID = try #require(await f.fake.addVerifiedFactor(email: Fixture.email))
        let session = try await f.signIn()
        let error = await #expect(throws: SessionError.self) { try await f.client.mfa.enroll() }
        #expect(error == .secondFactorRequired)
        #expect(error?.status == 403)
        #expect(f.client.currentState == .signedIn(session))
        #expect(await f.fake.count(.refresh) == 0)
        // Removing a verified factor needs AAL2 too (422 on GoTrue); after the code, both work.
        await #expect(throws: SessionError.secondFactorRequired) { try await f.client.mfa.unenroll(factorId: factorID) }
        let code = try #require(await f.fake.totpCode(forFactor: factorID))
        try await f.client.mfa.challengeAndVerify(factorId: factorID, code: code)
        #expect(try await f.client.mfa.unenroll(factorId: factorID).factorId == factorID)
        #expect(try await f.client.mfa.listFactors().all.isEmpty)
    }

    @Test func neitherTheSecretNorTheCodeNorATokenReachesTheLogs() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        let factor = try await f.client.mfa.enroll()
        let secret = try #require(factor.totp?.secret)
        let code = try #require(await f.fake.totpCode(forFactor: factor.id))
        let raised = try await f.client.mfa.challengeAndVerify(factorId: factor.id, code: code)
        let logged = f.logs.lines.joined(separator: "\n") + "\(factor.totp.map { String(describing: $0) } ?? "")"
        #expect(f.logs.lines.contains { $0.contains("second factor was verified") })
        for secretText in [secret, code, raised.accessToken, raised.refreshToken] {
            #expect(!logged.contains(secretText))
        }
    }

    @Test func aFactorIdThatWouldChangeThePathIsRefusedUnsent() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        await #expect(throws: SessionError.invalidRequest) { try await f.client.mfa.challenge(factorId: "../../admin/users") }
        #expect(await f.fake.count(.unknown) == 0)
    }
}
