#if canImport(Observation)
import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The model shows "needs a second factor" while signed in at AAL1 with a verified factor, and the code clears it.
@MainActor
struct SessionModelSecondFactorTests {
    @Test func aSignInWithAFactorShowsTheCodeStepAndTheCodeClearsIt() async throws {
        let f = await Fixture.make()
        let factorID = try #require(await f.fake.addVerifiedFactor(email: Fixture.email))
        let model = SessionModel(client: f.client)
        let run = Task { await model.run() }
        #expect(await model.signIn(email: Fixture.email, password: Fixture.password))
        #expect(await SessionModelTests.until { model.needsSecondFactor })
        // Signed in meanwhile: the AAL1 session is kept, not dropped.
        #expect(model.phase == .signedIn)

        let code = try #require(await f.fake.totpCode(forFactor: factorID))
        let wrong = code == "000000" ? "000001" : "000000"
        #expect(await model.verifySecondFactor(code: wrong) == false)
        #expect(model.lastError == .secondFactorCodeInvalid)
        #expect(model.needsSecondFactor && model.phase == .signedIn)

        #expect(await model.verifySecondFactor(code: code))
        #expect(await SessionModelTests.until { !model.needsSecondFactor })
        #expect(model.lastError == nil)
        #expect(model.phase == .signedIn)
        await f.client.shutdown()
        await run.value
    }
}
#endif
