import Foundation
import Observation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The SwiftUI model: follows the client, never shows the sign-in screen
/// while the store is read, and keeps the error worth showing.
@MainActor
struct SessionModelTests {
    /// Every phase the model showed, read through Observation as SwiftUI does.
    @MainActor final class PhaseRecorder {
        private(set) var phases: [SessionModel.Phase] = []
        let model: SessionModel

        init(_ model: SessionModel) {
            self.model = model
            track()
        }

        private func track() {
            let model = self.model
            // The tracked closure runs here, synchronously, on the main actor.
            let phase = withObservationTracking { MainActor.assumeIsolated { model.phase } } onChange: { [weak self] in
                // Called before the change lands; read it once it has.
                Task { @MainActor in self?.track() }
            }
            if phases.last != phase { phases.append(phase) }
        }
    }

    /// Yields (never sleeps) on the main actor until `condition` holds; `false` if it never did.
    static func until(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<20_000 {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }

    /// A signed-in session in a store whose first read is held at `gate`.
    static func seeded(gate: FakeGate) async throws -> (Fixture, Session) {
        let store = GatedStore()
        let signer = await Fixture.make()
        let session = try await signer.signIn()
        try await store.seed(StoredSession(session, sequence: 1))
        await store.holdNextLoad(gate)
        return (await Fixture.make(store: store, clock: signer.clock, fake: signer.fake, launchValidation: .skip), session)
    }

    @Test func neverShowsSignInWhileTheStoreIsRead() async throws {
        let gate = FakeGate()
        let (f, session) = try await Self.seeded(gate: gate)
        let model = SessionModel(client: f.client)
        let recorder = PhaseRecorder(model)
        #expect(model.phase == .restoring)
        #expect(model.isRestoring && !model.isSignedIn)

        let run = Task { await model.run() }
        await gate.waitForArrivals(1)
        for _ in 0..<200 { await Task.yield() }
        #expect(model.phase == .restoring)
        await gate.open()
        #expect(await Self.until { model.phase == .signedIn })
        #expect(model.user?.email == Fixture.email)
        #expect(model.state == .signedIn(session))
        #expect(await Self.until { recorder.phases.last == .signedIn })
        #expect(recorder.phases == [.restoring, .signedIn])
        run.cancel()
        await run.value
    }

    @Test func nothingStoredShowsSignIn() async throws {
        let f = await Fixture.make()
        let model = SessionModel(client: f.client)
        let run = Task { await model.run() }
        #expect(await Self.until { model.phase == .signedOut })
        #expect(model.lastError == nil)
        await f.client.shutdown()
        await run.value  // the client's streams ended: so does the model
    }

    @Test func aFailedSignInKeepsItsError() async throws {
        let f = await Fixture.make()
        let model = SessionModel(client: f.client)
        let run = Task { await model.run() }
        #expect(await model.signIn(email: Fixture.email, password: "wrong") == false)
        #expect(model.lastError == .invalidCredentials)
        #expect(await model.signIn(email: Fixture.email, password: Fixture.password))
        #expect(await Self.until { model.phase == .signedIn })
        #expect(model.lastError == nil)
        await f.client.shutdown()
        await run.value
    }

    /// The whole journey through the model, each step reporting through `lastError` (issue 28 item 7).
    @Test func theJourneyReportsThroughLastError() async throws {
        let f = await Fixture.make()
        let model = SessionModel(client: f.client)
        let run = Task { await model.run() }
        let created = await model.signUp(email: "grace@example.com", password: "short")
        #expect(created == nil)
        await f.fake.inject(.goTrueError(status: 422, code: .weakPassword, message: "Password should be at least 8 characters."), on: .signUp)
        #expect(await model.signUp(email: "grace@example.com", password: "short") == nil)
        #expect(model.lastError == .invalidRequest)
        guard case .signedIn? = await model.signUp(email: "grace@example.com", password: "long-enough-pw") else {
            Issue.record("sign-up did not sign in: \(String(describing: model.lastError))")
            return
        }
        #expect(model.lastError == nil)
        #expect(await model.updateUser(UserAttributes(data: ["nickname": .string("Grace")])))
        #expect(await model.updateProfile(ProfileUpdate(firstName: "Grace")))
        await f.fake.inject(.gatewayError(status: 403, code: .reauthenticationRequired), on: .deleteMe)
        #expect(await model.deleteAccount() == false)
        #expect(model.lastError == .reauthenticationRequired)
        #expect(model.isSignedIn)
        #expect(await model.deleteAccount(currentPassword: "long-enough-pw"))
        #expect(await Self.until { model.phase == .signedOut })
        await f.client.shutdown()
        await run.value
    }

    /// Offline is still signed in: the app shows its content with a banner, not the sign-in screen.
    @Test func offlineIsSignedIn() async throws {
        let f = await Fixture.make()
        let model = SessionModel(client: f.client)
        let run = Task { await model.run() }
        let session = try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.drop(.notConnectedToInternet), on: .refresh)
        _ = try? await f.client.accessToken()
        #expect(await Self.until { model.state == .offline(session) })
        #expect(model.phase == .signedIn)
        #expect(model.isSignedIn)
        #expect(model.lastError == nil)
        await f.client.shutdown()
        await run.value
    }

    @Test func theEndOfTheSessionIsShownOnce() async throws {
        let f = await Fixture.make()
        let model = SessionModel(client: f.client)
        let run = Task { await model.run() }
        let session = try await f.signIn()
        #expect(await Self.until { model.phase == .signedIn })
        await f.fake.revokeFamily(ofRefreshToken: session.refreshToken)
        f.expireAccessToken()
        _ = try? await f.client.accessToken()
        #expect(await Self.until { model.phase == .signedOut })
        #expect(model.lastError == .sessionExpired)
        #expect(model.lastError?.message == SessionError.sessionExpiredMessage)
        model.clearError()
        #expect(model.lastError == nil)
        await f.client.shutdown()
        await run.value
    }

    /// A store that cannot be read yet (a locked device): still restoring, with the reason.
    @Test func anUnreadableStoreStaysRestoring() async throws {
        let store = FlakySessionStore(wrapping: InMemorySessionStore())
        await store.failNextLoads(1)
        let f = await Fixture.make(store: store)
        let model = SessionModel(client: f.client)
        await model.restore()
        #expect(model.phase == .restoring)
        #expect(model.lastError == .storeUnavailable)
    }

    @Test(arguments: [
        (SessionState.restoring, SessionModel.Phase.restoring), (.signedOut, .signedOut), (.expired(reason: "over"), .signedOut),
    ])
    func phases(state: SessionState, phase: SessionModel.Phase) {
        #expect(SessionModel.Phase(state) == phase)
    }
}
