import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// A step-up refusal (GoTrue's `insufficient_aal`, the gateway's `MFA_REQUIRED`)
/// refuses the session's level, never the session: no refresh, no retry loop,
/// no sign-out (docs/MFA.md, docs/DESIGN.md "The error contract").
struct StepUpTests {
    @Test func insufficientAALOn401NeitherRefreshesNorSignsOut() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        let session = try await f.signIn()
        // GoTrue answers a password change at AAL1 with 401 `insufficient_aal`, every time.
        await f.fake.inject(.goTrueError(status: 401, code: .insufficientAAL, message: "AAL2 required"), on: .updateUser, times: 5)
        let error = await #expect(throws: SessionError.self) {
            try await f.client.updateUser(UserAttributes(password: "another-password"))
        }
        #expect(error == .secondFactorRequired)
        #expect(error?.status == 401)
        #expect(await f.fake.count(.refresh) == 0)
        #expect(await f.fake.count(.updateUser) == 1)
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.storedRefreshToken() == session.refreshToken)
        #expect(await events.finish(f.client).expiredCount == 0)
    }

    @Test func mfaRequiredFromTheGatewayIsItsOwnKindAndKeepsTheSession() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        await f.fake.inject(.gatewayError(status: 403, code: .mfaRequired, message: "Verify your second factor"), on: .user)
        // Even at 401, MFA_REQUIRED is not the token's refusal.
        await f.fake.inject(.gatewayError(status: 401, code: .mfaRequired), on: .sessions)
        await #expect(throws: SessionError.secondFactorRequired) { try await f.client.me() }
        await #expect(throws: SessionError.secondFactorRequired) { try await f.client.deviceSessions() }
        #expect(await f.fake.count(.refresh) == 0)
        #expect(f.client.currentState == .signedIn(session))
    }

    @Test func anAppRequestRefusedForMFAIsReturnedAndReadsAsSecondFactorRequired() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        await f.fake.inject(.gatewayError(status: 401, code: .mfaRequired), on: .activities, times: 3)
        let (data, response) = try await f.client.send(URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities")))
        #expect(response.statusCode == 401)
        #expect(SessionError(answer: data, response: response) == .secondFactorRequired)
        #expect(await f.fake.count(.activities) == 1)
        #expect(await f.fake.count(.refresh) == 0)
        #expect(f.client.currentState == .signedIn(session))
    }

    @Test func aRealTokenRejectionStillRefreshesOnce() async throws {
        // The step-up carve-out must not swallow the 401 that does call for a refresh.
        let f = await Fixture.make()
        try await f.signIn()
        await f.fake.inject(.goTrueError(status: 401, code: .badJWT, message: "invalid JWT"), on: .user)
        _ = try await f.client.me()
        #expect(await f.fake.count(.refresh) == 1)
    }
}
