import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer
import Testing

/// Refresh-token theft when the thief refreshes first (the other order is
/// `SignInLifecycleTests.stolenTokenReusedAfterGraceEndsTheSessionOnce`):
/// the legitimate client's late refresh is a reuse, the whole family is
/// revoked, the thief's tokens die with it, and the client learns it once.
@Suite(.serialized)
struct TokenTheftTests {
    @Test func thiefWhoRefreshesFirstLosesTheFamilyAndTheClientExpiresOnce() async throws {
        try await LiveStack.run { stack in
            let (client, directory) = try stack.makeClient()
            let recorder = EventRecorder(client)
            let stolen = try await stack.signUp(client, email: "theft-victim@example.com")

            // The thief rotates the stolen token first, and keeps using the
            // session: a second rotation proves the successor was received.
            // (A successor that was never used is handed out again to its
            // parent: that is how a client that crashed before saving recovers.)
            let first = try await Self.rotate(stolen.refreshToken, stack)
            await stack.advance(by: 11)
            let thief = try await Self.rotate(first.refreshToken, stack)
            #expect(try await stack.raw("GET", "v1/auth/me", bearer: thief.accessToken).0 == 200)

            // After the grace, the client presents its (rotated-out) token: reuse.
            await stack.advance(by: 3601)
            await #expect(throws: SessionError.sessionExpired) { _ = try await client.accessToken() }
            #expect(await recorder.waitUntil { $0.contains { if case .sessionExpired = $0 { true } else { false } } })

            // The family is revoked: the thief's refresh token and access token are dead.
            let (thiefRefresh, thiefBody) = try await stack.raw(
                "POST", "auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"\#(thief.refreshToken)"}"#)
            #expect(thiefRefresh == 400)
            let code = ServerErrorBody.parse(thiefBody)?.goTrueErrorCode
            #expect(code == .refreshTokenAlreadyUsed || code == .refreshTokenNotFound || code == .sessionExpired)
            let (thiefMe, thiefMeBody) = try await stack.raw("GET", "v1/auth/me", bearer: thief.accessToken)
            #expect(thiefMe == 401)
            #expect(ServerErrorBody.parse(thiefMeBody)?.code == .sessionExpired)

            // The client: exactly one sessionExpired, signed out, nothing left in the store.
            await #expect(throws: SessionError.notSignedIn) { _ = try await client.accessToken() }
            await #expect(throws: SessionError.notSignedIn) { _ = try await client.refresh() }
            #expect(recorder.expiredCount == 1)
            await client.shutdown()
            let (relaunched, _) = try stack.makeClient(directory: directory)
            #expect(try await relaunched.restore() == .signedOut)
            await relaunched.shutdown()
            // One theft, one detection: the thief's late try on the revoked family is not counted again.
            let metrics = stack.server.metrics.render()
            #expect(metrics.contains("auth_refresh_reuse_detected_total 1\n"), "\(metrics)")
        }
    }

    static func rotate(_ refreshToken: String, _ stack: LiveStack) async throws -> TokenResponse {
        let (status, body) = try await stack.raw(
            "POST", "auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"\#(refreshToken)"}"#)
        #expect(status == 200)
        return try WireCoding.decoder().decode(TokenResponse.self, from: body)
    }
}
