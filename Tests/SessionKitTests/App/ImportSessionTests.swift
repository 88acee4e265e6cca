import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// `importSession`: tokens an app already holds become the client's saved
/// session; a transient failure never signs anyone out; the server's own
/// verdict stores nothing.
struct ImportSessionTests {
    /// Tokens the fake issued, as an app that kept them itself would hold them.
    static func heldTokens(_ f: Fixture) async throws -> TokenResponse {
        try #require(await f.fake.issueSession(email: Fixture.email))
    }

    static func expiry(of tokens: TokenResponse) -> Date? {
        tokens.expiresAt.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    @Test func aValidSessionIsConfirmedAndSaved() async throws {
        let f = await Fixture.make()
        let held = try await Self.heldTokens(f)
        let session = try await f.client.importSession(
            accessToken: held.accessToken, refreshToken: held.refreshToken, expiresAt: Self.expiry(of: held))
        #expect(session.refreshToken == held.refreshToken)
        #expect(session.user?.email == Fixture.email)
        #expect(f.client.currentState == .signedIn(session))
        // Saved and read back: a new launch finds it.
        #expect(try await f.store.load()?.refreshToken == held.refreshToken)
        #expect(await f.fake.count(.user) == 1)
        #expect(await f.fake.count(.refresh) == 0)
        let next = await Fixture.make(store: f.store, clock: f.clock, fake: f.fake, launchValidation: .skip)
        #expect(try await next.client.restore().session?.refreshToken == held.refreshToken)
    }

    @Test func anExpiredSessionIsRefreshedOnce() async throws {
        let f = await Fixture.make()
        let held = try await Self.heldTokens(f)
        f.expireAccessToken()
        let session = try await f.client.importSession(
            accessToken: held.accessToken, refreshToken: held.refreshToken, expiresAt: Self.expiry(of: held))
        // The expired token is never sent: the refresh comes first.
        #expect(await f.fake.count(.user) == 0)
        #expect(await f.fake.count(.refresh) == 1)
        #expect(session.refreshToken != held.refreshToken)
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
        #expect(f.client.currentState == .signedIn(session))
    }

    /// An opaque access token and no expiry: nothing says it is valid, so it is refreshed first.
    @Test func anUnknownExpiryIsRefreshedFirst() async throws {
        let f = await Fixture.make()
        let held = try await Self.heldTokens(f)
        let session = try await f.client.importSession(
            accessToken: "opaque-access-token", refreshToken: held.refreshToken, expiresAt: nil)
        #expect(await f.fake.count(.refresh) == 1)
        #expect(await f.fake.count(.user) == 0)
        #expect(session.accessToken != "opaque-access-token")
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
    }

    /// The app's `expiresAt` says valid, the server says otherwise: the refresh token decides.
    @Test func aRejectedAccessTokenIsRefreshedOnce() async throws {
        let f = await Fixture.make()
        let held = try await Self.heldTokens(f)
        let session = try await f.client.importSession(
            accessToken: "opaque-access-token", refreshToken: held.refreshToken,
            expiresAt: f.clock.now.addingTimeInterval(1800))
        #expect(await f.fake.count(.user) == 1)
        #expect(await f.fake.count(.refresh) == 1)
        #expect(f.client.currentState == .signedIn(session))
    }

    /// A still-valid access token the server rejected, then a refresh that
    /// cannot be made now: the refresh failure path decides the state, as for
    /// any refresh (offline only when the server is unreachable), no longer a
    /// copy of it that always said offline (issue 36).
    @Test(arguments: [(FakeFault.drop(.notConnectedToInternet), true), (FakeFault.status(503), false)])
    func aRejectedTokenWhoseRefreshFailsTakesTheRefreshFailurePath(fault: FakeFault, offline: Bool) async throws {
        let f = await Fixture.make()
        let held = try await Self.heldTokens(f)
        await f.fake.inject(fault, on: .refresh)
        let session = try await f.client.importSession(
            accessToken: "opaque-access-token", refreshToken: held.refreshToken,
            expiresAt: f.clock.now.addingTimeInterval(1800))
        #expect(session.refreshToken == held.refreshToken)
        #expect(f.client.currentState == (offline ? .offline(session) : .signedIn(session)))
        #expect(await f.fake.count(.user) == 1)
        #expect(await f.fake.count(.refresh) == 1)
    }

    @Test(arguments: [FakeFault.drop(.notConnectedToInternet), .status(503), .status(401, body: Data("<html>Proxy</html>".utf8))])
    func aFailedRefreshKeepsTheImportedTokens(fault: FakeFault) async throws {
        let f = await Fixture.make(automaticRefresh: true)
        let held = try await Self.heldTokens(f)
        f.expireAccessToken()
        await f.fake.inject(fault, on: .refresh)
        let events = EventLog(f.client)
        let session = try await f.client.importSession(
            accessToken: held.accessToken, refreshToken: held.refreshToken, expiresAt: Self.expiry(of: held))
        #expect(session.refreshToken == held.refreshToken)
        #expect(f.client.currentState == .offline(session))
        #expect(try await f.store.load()?.refreshToken == held.refreshToken)
        #expect(await f.fake.count(.refresh) == 1)
        // Retried after the backoff, not at once, and then signed in.
        #expect(await f.clock.waitForSleepers(count: 1))
        await f.clock.advance(by: 2)
        #expect(await eventually { f.client.currentState.session?.refreshToken != held.refreshToken && f.client.currentState.session != nil })
        #expect(await f.fake.count(.refresh) == 2)
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 0)
        #expect(!seen.contains(.signedOut))
    }

    @Test func anUnreachableServerKeepsAValidSession() async throws {
        let f = await Fixture.make()
        let held = try await Self.heldTokens(f)
        await f.fake.inject(.drop(.notConnectedToInternet), on: .user)
        let session = try await f.client.importSession(
            accessToken: held.accessToken, refreshToken: held.refreshToken, expiresAt: Self.expiry(of: held))
        #expect(f.client.currentState == .offline(session))
        #expect(try await f.store.load()?.refreshToken == held.refreshToken)
        #expect(await f.fake.count(.refresh) == 0)
    }

    @Test(arguments: [true, false])
    func anEndedSessionThrowsAndStoresNothing(alreadySignedIn: Bool) async throws {
        let f = await Fixture.make()
        let existing = alreadySignedIn ? try await f.signIn() : nil
        let held = try await Self.heldTokens(f)
        await f.fake.revokeFamily(ofRefreshToken: held.refreshToken)
        f.expireAccessToken()
        let stateBefore = f.client.currentState
        await #expect(throws: SessionError.sessionExpired) {
            try await f.client.importSession(
                accessToken: held.accessToken, refreshToken: held.refreshToken, expiresAt: Self.expiry(of: held))
        }
        #expect(try await f.store.load()?.refreshToken == existing?.refreshToken)
        #expect(f.client.currentState == stateBefore)
        #expect(await f.client.currentSession?.refreshToken == existing?.refreshToken)
    }

    @Test func aSuspendedAccountIsTyped() async throws {
        let f = await Fixture.make()
        let held = try await Self.heldTokens(f)
        f.expireAccessToken()
        await f.fake.inject(.goTrueError(status: 403, code: .userBanned), on: .refresh)
        await #expect(throws: SessionError.accountSuspended) {
            try await f.client.importSession(
                accessToken: held.accessToken, refreshToken: held.refreshToken, expiresAt: Self.expiry(of: held))
        }
        #expect(try await f.store.load() == nil)
    }

    @Test(arguments: [("", "refresh"), ("access token", "refresh"), ("access", ""), ("access", "refresh\n"), ("access", String(repeating: "r", count: 4000))])
    func malformedTokensAreRefusedBeforeAnyRequest(access: String, refresh: String) async throws {
        let f = await Fixture.make()
        let error = await #expect(throws: SessionError.invalidRequest) {
            try await f.client.importSession(accessToken: access, refreshToken: refresh, expiresAt: nil)
        }
        #expect(error?.message.contains("token to import") == true)
        #expect(await f.fake.count(.user) + f.fake.count(.refresh) == 0)
        #expect(try await f.store.load() == nil)
    }

    /// The tokens can be had again (the app still holds them): a failed save changes nothing.
    @Test func aFailedSaveThrowsAndChangesNothing() async throws {
        let flaky = FlakySessionStore(wrapping: InMemorySessionStore())
        let f = await Fixture.make(store: flaky)
        let held = try await Self.heldTokens(f)
        await flaky.failNextSaves(1)
        await #expect(throws: SessionError.persistenceFailed) {
            try await f.client.importSession(
                accessToken: held.accessToken, refreshToken: held.refreshToken, expiresAt: Self.expiry(of: held))
        }
        #expect(await f.client.currentSession == nil)
        #expect(try await flaky.load() == nil)
    }

    @Test func noTokenIsLogged() async throws {
        let f = await Fixture.make()
        let held = try await Self.heldTokens(f)
        f.expireAccessToken()
        let session = try await f.client.importSession(
            accessToken: held.accessToken, refreshToken: held.refreshToken, expiresAt: Self.expiry(of: held))
        let secrets = [held.accessToken, held.refreshToken, session.accessToken, session.refreshToken]
        #expect(!f.logs.lines.isEmpty)
        for line in f.logs.lines {
            for secret in secrets { #expect(!line.contains(secret.prefix(7))) }
        }
    }
}
