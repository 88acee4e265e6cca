#if canImport(Observation)
import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// `SessionModel` shows an anonymous person as signed in, and keeps the refused sign-out's error.
@MainActor
struct AnonymousSessionModelTests {
    @Test func anAnonymousPersonIsSignedInAndTheRefusedSignOutIsTheErrorToShow() async throws {
        let f = await Fixture.make()
        await f.fake.setAnonymousSignIns(true)
        let model = SessionModel(client: f.client)
        let run = Task { await model.run() }
        #expect(await model.signInAnonymously(data: ["plan": "trial"]))
        #expect(await SessionModelTests.until { model.phase == .signedIn })
        #expect(model.isAnonymous)
        #expect(model.isSignedIn)
        #expect(model.user?.isAnonymous == true)

        let refused = await model.signOut()
        #expect(!refused)
        #expect(model.lastError == .anonymousAccountWouldBeLost)
        #expect(model.isSignedIn)

        #expect(await model.signOut(discardingAnonymousAccount: true))
        #expect(await SessionModelTests.until { model.phase == .signedOut })
        #expect(!model.isAnonymous)
        #expect(model.lastError == nil)
        run.cancel()
        await run.value
    }

    @Test func confirmingAnEmailShowsThePersonAsPermanent() async throws {
        let f = await Fixture.make()
        await f.fake.setAnonymousSignIns(true)
        let model = SessionModel(client: f.client)
        let run = Task { await model.run() }
        #expect(await model.signInAnonymously())
        #expect(await SessionModelTests.until { model.isAnonymous })
        #expect(await model.updateUser(UserAttributes(email: EmailChangeTests.newEmail)))
        let code = try #require(await f.fake.emailChangeCode(sentTo: EmailChangeTests.newEmail))
        #expect(await model.verifyEmailChange(email: EmailChangeTests.newEmail, code: "999999x") == nil)
        #expect(model.lastError == .codeInvalid)
        let result = await model.verifyEmailChange(email: EmailChangeTests.newEmail, code: code)
        #expect(result?.isComplete == true)
        #expect(await SessionModelTests.until { !model.isAnonymous })
        #expect(model.user?.email == EmailChangeTests.newEmail)
        #expect(model.phase == .signedIn)
        #expect(model.lastError == nil)
        run.cancel()
        await run.value
    }
}
#endif
