import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer
import Testing

/// SessionKit against a live `auth-server` on loopback: the life of a session
/// over real HTTP, with both clocks under the test's control.
@Suite(.serialized)
struct SignInLifecycleTests {
    @Test func signUpThenRestoreInANewLaunch() async throws {
        try await LiveStack.run { stack in
            let (client, directory) = try stack.makeClient()
            let result = try await client.signUp(
                email: "ada@example.com", password: "correct-horse-9", data: ["first_name": "Ada"])
            guard case .signedIn(let session) = result else {
                Issue.record("expected a session from an autoconfirmed sign-up, got \(result)")
                return
            }
            #expect(session.user?.email == "ada@example.com")
            #expect(try await client.me().userMetadata["first_name"] == "Ada")
            await client.shutdown()

            let (relaunched, _) = try stack.makeClient(directory: directory)
            let state = try await relaunched.restore()
            #expect(state.session?.refreshToken == session.refreshToken)
            #expect(state.isSignedIn)
            await relaunched.shutdown()
        }
    }

    @Test func signInWithWrongPasswordIsInvalidCredentials() async throws {
        try await LiveStack.run { stack in
            let (client, _) = try stack.makeClient()
            try await stack.signUp(client, email: "cy@example.com")
            try await client.signOut()
            await #expect(throws: SessionError.invalidCredentials) {
                try await client.signIn(email: "cy@example.com", password: "wrong-password")
            }
            await #expect(throws: SessionError.invalidCredentials) {
                try await client.signIn(email: "nobody@example.com", password: "wrong-password")
            }
            await client.shutdown()
        }
    }

    @Test func expiredAccessTokenRefreshesAndRotates() async throws {
        try await LiveStack.run { stack in
            let (client, _) = try stack.makeClient()
            let first = try await stack.signUp(client, email: "bo@example.com")
            #expect(try await client.accessToken() == first.accessToken)

            await stack.advance(by: 3601)
            let token = try await client.accessToken()
            let second = try #require(await client.currentSession)
            #expect(token != first.accessToken)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.expiresAt > stack.clientClock.now)
            await client.shutdown()
        }
    }

    @Test func stolenTokenReusedAfterGraceEndsTheSessionOnce() async throws {
        try await LiveStack.run { stack in
            let (client, directory) = try stack.makeClient()
            let recorder = EventRecorder(client)
            let first = try await stack.signUp(client, email: "eve-victim@example.com")
            await stack.advance(by: 3601)
            let second = try await client.refresh()

            // Within the grace the rotated-out token returns the same successor.
            let (graceStatus, graceBody) = try await stack.raw(
                "POST", "auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"\#(first.refreshToken)"}"#)
            #expect(graceStatus == 200)
            let graceSession = try WireCoding.decoder().decode(TokenResponse.self, from: graceBody)
            #expect(graceSession.refreshToken == second.refreshToken)

            // Once the client has used its successor (a later rotation), the
            // thief's replay of the first token after the grace revokes the family.
            await stack.advance(by: 3601)
            _ = try await client.refresh()
            await stack.advance(by: 11)
            let (reuseStatus, reuseBody) = try await stack.raw(
                "POST", "auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"\#(first.refreshToken)"}"#)
            #expect(reuseStatus == 400)
            #expect(ServerErrorBody.parse(reuseBody)?.goTrueErrorCode == .refreshTokenAlreadyUsed)

            // The legitimate client learns it once, and its store is cleared.
            await #expect(throws: SessionError.sessionExpired) { try await client.refresh() }
            await #expect(throws: (any Error).self) { try await client.refresh() }
            #expect(await recorder.waitUntil { events in events.contains { if case .sessionExpired = $0 { true } else { false } } })
            #expect(recorder.expiredCount == 1)
            await client.shutdown()

            let (relaunched, _) = try stack.makeClient(directory: directory)
            #expect(try await relaunched.restore() == .signedOut)
            await relaunched.shutdown()
        }
    }

    @Test func deviceClockFourMinutesBehindStillRefreshesOnTime() async throws {
        try await LiveStack.run(clientClockOffset: -240) { stack in
            let (client, _) = try stack.makeClient()
            let first = try await stack.signUp(client, email: "skew@example.com")
            // Server time is now 30 s past expiry; the device clock says 3.5 minutes remain.
            await stack.advance(by: 3630)
            let token = try await client.accessToken()
            #expect(token != first.accessToken, "the client must judge expiry by the server's clock")
            #expect(abs(await client.serverClockOffset() - 240) <= 2)
            await client.shutdown()
        }
    }

    @Test func keyRotationIsAbsorbedByOneForcedRefresh() async throws {
        try await LiveStack.run { stack in
            let (client, _) = try stack.makeClient()
            let first = try await stack.signUp(client, email: "keys@example.com")
            // Two rotations retire the key that signed the current token.
            _ = try await stack.server.keyRing.rotate()
            _ = try await stack.server.keyRing.rotate()
            let (data, response) = try await client.send(stack.request("GET", "v1/auth/me"))
            #expect(response.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
            #expect(try await client.accessToken() != first.accessToken)
            #expect(await client.currentSession?.refreshToken != first.refreshToken)
            await client.shutdown()
        }
    }
}
