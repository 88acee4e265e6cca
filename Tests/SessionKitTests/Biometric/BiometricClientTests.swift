import Foundation
import Testing
@testable import SessionKit
import SessionKitTesting

/// The client behind the gate: a closed gate shows `locked` and never signs
/// anyone out; a refresh due in the background waits; the token in memory serves.
struct BiometricClientTests {
    /// A client of `backend` on `store`, as a relaunched app builds it.
    func relaunchedClient(_ env: SessionTestEnvironment, on store: KeychainSessionStore) -> SessionClient {
        SessionClient(
            configuration: env.backend.clientConfiguration(
                clock: env.clock, store: store, launchValidation: .skip, automaticRefresh: false, logger: env.logs.logger()))
    }

    @Test func aCancelAtLaunchShowsLockedAndTheNextCheckContinues() async throws {
        let first = BiometricFixture(.oncePerLaunch)
        let env = await SessionTestEnvironment.make(store: first.store, launchValidation: .skip, automaticRefresh: false)
        let session = try await env.signIn()
        #expect(first.biometrics.sheetsShown == 0)  // signing in never asks
        let relaunch = first.relaunched(.oncePerLaunch)
        let client = relaunchedClient(env, on: relaunch.store)
        relaunch.biometrics.answerNextChecks(.userCanceled)
        await #expect(throws: SessionError.storeUnavailable) { try await client.restore() }
        #expect(client.currentState == .locked(.cancelled))
        #expect(relaunch.storedData != nil)
        // The person taps "Unlock": the next check passes and the session continues, not a new sign-in.
        let state = try await client.restore()
        #expect(state.session?.refreshToken == session.refreshToken)
        #expect(relaunch.biometrics.sheetsShown == 2)
    }

    @Test func aFailedCheckAtLaunchShowsLocked() async throws {
        let first = BiometricFixture(.everyRead)
        let env = await SessionTestEnvironment.make(store: first.store, launchValidation: .skip, automaticRefresh: false)
        try await env.signIn()
        let relaunch = first.relaunched(.everyRead)
        let client = relaunchedClient(env, on: relaunch.store)
        relaunch.biometrics.answerNextChecks(.authFailed)
        await #expect(throws: SessionError.self) { try await client.restore() }
        #expect(client.currentState == .locked(.failed))
        #expect(relaunch.storedData != nil)
    }

    @Test func aBiometryChangeIsToldOnceAndTheRecordStaysUntilANewSignIn() async throws {
        let first = BiometricFixture(.oncePerLaunch)
        let env = await SessionTestEnvironment.make(store: first.store, launchValidation: .skip, automaticRefresh: false)
        try await env.signIn()
        first.biometrics.enrollAnew()
        let relaunch = first.relaunched(.oncePerLaunch)
        let client = relaunchedClient(env, on: relaunch.store)
        let states = client.states
        await #expect(throws: SessionError.self) { try await client.restore() }
        await #expect(throws: SessionError.self) { try await client.restore() }
        #expect(client.currentState == .locked(.biometryChanged))
        #expect(relaunch.storedData != nil)  // nothing deleted it
        // The person signs in again: the new session replaces the invalidated record.
        let fresh = try await client.signIn(email: SessionTestEnvironment.defaultEmail, password: SessionTestEnvironment.defaultPassword)
        #expect(try await relaunch.store.load()?.refreshToken == fresh.refreshToken)
        var told = 0
        for await state in states {
            if state == .locked(.biometryChanged) { told += 1 }
            if state.isSignedIn { break }
        }
        #expect(told == 1)
    }

    @Test func aRefreshDueInTheBackgroundWaitsWithoutUIAndTheTokenInMemoryServes() async throws {
        let f = BiometricFixture(.everyRead)
        let env = await SessionTestEnvironment.make(store: f.store, launchValidation: .skip, automaticRefresh: false)
        let session = try await env.signIn()
        await env.client.handleLifecycleEvent(.didEnterBackground)
        // The access token in memory is used while valid: no read of the store, no sheet.
        #expect(try await env.client.accessToken() == session.accessToken)
        env.expireAccessToken()
        let before = await env.backend.count(.refresh)
        await #expect(throws: SessionError.self) { try await env.client.refresh() }
        #expect(await env.backend.count(.refresh) == before)  // nothing rotated that could not be saved
        #expect(f.biometrics.sheetsShown == 0)
        #expect(await env.client.currentSession?.refreshToken == session.refreshToken)
        #expect(f.storedData != nil)
        // Back in front, the client resumes by itself: the check passes, the refresh goes through and is saved.
        await env.client.handleLifecycleEvent(.didBecomeActive)
        let refreshed = try #require(await env.client.currentSession)
        #expect(refreshed.refreshToken != session.refreshToken)
        #expect(await env.backend.count(.refresh) == before + 1)
        #expect(f.biometrics.sheetsShown == 1)
        #expect(try await f.store.load()?.refreshToken == refreshed.refreshToken)
    }

    #if canImport(Observation)
    @Test @MainActor func theModelShowsLockedAsNeitherScreen() {
        // Phase has no case of its own (apps switch over it exhaustively): neither screen, and lockReason says why.
        #expect(SessionModel.Phase(.locked(.cancelled)) == .restoring)
        #expect(SessionModel.Phase(.locked(.biometryChanged)) == .restoring)
    }
    #endif
}
