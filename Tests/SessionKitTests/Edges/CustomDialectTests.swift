import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// Custom backends as apps have them: minimal bodies, their own end codes.
@Suite(.timeLimit(.minutes(1)))
struct CustomDialectTests {
    static let minimalWorlds: [World] = [.minimalBare, .minimalWrapped]

    @Test(arguments: minimalWorlds)
    func aMinimalSessionBodyIsReadWithTheUserFromTheClaims(world: World) async throws {
        let f = await WorldFixture.make(world)
        let session = try await f.signIn()
        #expect(session.user?.email == WorldFixture.email)
        #expect(session.lifetime == 3600)
        let user = try await f.client.me()
        #expect(user.email == WorldFixture.email)
        #expect(user.createdAt == nil)
    }

    /// The seed apps' failure: a minimal answer could not be read, the client
    /// retried the refresh token the backend had already rotated away, and a
    /// backend without grace ended the session.
    @Test(arguments: minimalWorlds)
    func aMinimalRefreshAnswerIsKeptSoTheRotatedTokenIsNeverReused(world: World) async throws {
        let f = await WorldFixture.make(world)
        let old = try await f.signIn()
        f.expireAccessToken()
        let token = try await f.client.accessToken()
        #expect(token != old.accessToken)
        let stored = try #require(try await f.storedRefreshToken())
        #expect(stored != old.refreshToken)
        #expect(await f.serverHonours(stored))
        #expect(await f.refreshCount() == 1)
        // Again, from the stored token: the chain goes on.
        f.expireAccessToken()
        _ = try await f.client.accessToken()
        #expect(f.client.currentState.isSignedIn)
    }

    @Test func aCustomBackendDeclaresItsOwnEndCodes() async throws {
        let invalidGrant = FakeFault.status(400, body: Data(#"{"error":"invalid_grant","error_description":"revoked"}"#.utf8))
        // Declared: an end.
        let declared = await WorldFixture.make(.minimalBare) { configuration in
            guard var backend = configuration.backend as? CustomBackend else { return }
            backend.sessionEndingCodes = backend.sessionEndingCodes.adding(ended: ["invalid_grant"])
            configuration.backend = backend
        }
        try await declared.signIn()
        declared.expireAccessToken()
        await declared.injectOnRefresh(invalidGrant)
        await #expect(throws: SessionError.sessionExpired) { try await declared.client.accessToken() }
        // Not declared: refused in between, the session kept.
        let undeclared = await WorldFixture.make(.minimalBare)
        let old = try await undeclared.signIn()
        undeclared.expireAccessToken()
        await undeclared.injectOnRefresh(invalidGrant)
        await #expect(throws: SessionError.refreshRefused) { try await undeclared.client.accessToken() }
        #expect(try await undeclared.storedRefreshToken() == old.refreshToken)
    }

    @Test func aBannedUserEndsWithItsOwnReason() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.goTrueError(status: 403, code: .userBanned, message: "User is banned"), on: .refresh)
        await #expect(throws: SessionError.accountSuspended) { try await f.client.accessToken() }
        #expect(f.client.currentState == .expired(reason: SessionError.accountSuspended.message))
        #expect(try await f.store.load()?.holdsSession != true)
        let seen = await events.finish(f.client)
        #expect(seen.contains(.sessionExpired(message: SessionError.accountSuspended.message)))
        #expect(seen.expiredCount == 1)
    }

    @Test func aGoTrueBodyWithoutUserOrTokenTypeIsKept() async throws {
        let f = await Fixture.make()
        let old = try await f.signIn()
        let access = TestJWT.make(subject: "user-9", email: "ada@example.com", issuedAt: f.clock.now, expiresAt: f.clock.now.addingTimeInterval(600))
        let body = #"{"access_token":"\#(access)","refresh_token":"rotated-elsewhere","expires_in":600}"#
        await f.fake.inject(.body(Data(body.utf8)), on: .refresh)
        let renewed = try await f.client.refresh()
        #expect(renewed.refreshToken == "rotated-elsewhere")
        #expect(renewed.lifetime == 600)
        #expect(renewed.user?.id != nil)
        #expect(try await f.storedRefreshToken() == "rotated-elsewhere")
        _ = old
    }
}
