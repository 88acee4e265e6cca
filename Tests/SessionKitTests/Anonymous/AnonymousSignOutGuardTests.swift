import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// Issue 40, item 6: an anonymous account is never thrown away by accident.
/// Each path that can end a session on the client treats an anonymous one as
/// docs/ACCOUNTS.md ("Anonymous users (SDK)") says.
struct AnonymousSignOutGuardTests {
    @Test func aPlainSignOutOfAnAnonymousSessionIsRefusedAndKeepsEverything() async throws {
        let (f, session) = try await AnonymousSignInTests.anonymous()
        for scope in [SignOutScope.local, .global] {
            await #expect(throws: SessionError.anonymousAccountWouldBeLost) { try await f.client.signOut(scope: scope) }
            await #expect(throws: SessionError.anonymousAccountWouldBeLost) {
                try await f.client.signOut(scope: scope, discardingAnonymousAccount: false)
            }
        }
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.storedRefreshToken() == session.refreshToken)
        #expect(await f.fake.count(.logout) == 0)
        #expect(await f.fake.isFamilyActive(refreshToken: session.refreshToken))
    }

    @Test func theAcknowledgedSignOutDiscardsTheAnonymousSession() async throws {
        let (f, session) = try await AnonymousSignInTests.anonymous()
        try await f.client.signOut(discardingAnonymousAccount: true)
        #expect(f.client.currentState == .signedOut)
        #expect(try await f.store.load()?.holdsSession != true)
        #expect(await f.fake.count(.logout) == 1)
        #expect(await !f.fake.isFamilyActive(refreshToken: session.refreshToken))
    }

    @Test func signingOutTheOtherSessionsKeepsThisOneAndNeedsNoWord() async throws {
        let (f, session) = try await AnonymousSignInTests.anonymous()
        try await f.client.signOut(scope: .others)
        #expect(f.client.currentState == .signedIn(session))
    }

    @Test func aSessionThatIsNotAnonymousSignsOutAsBefore() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        #expect(!session.isAnonymous)
        try await f.client.signOut()
        #expect(f.client.currentState == .signedOut)
        try await f.signIn()
        try await f.client.signOut(discardingAnonymousAccount: false)
        #expect(f.client.currentState == .signedOut)
    }

    @Test func aClientThatNeverRestoredRefusesWhatTheStoreHolds() async throws {
        let (f, session) = try await AnonymousSignInTests.anonymous()
        // A second process (a CLI run) over the same store signs out without restoring first.
        let other = SessionClient(configuration: f.fake.clientConfiguration(clock: f.clock, store: AnyStore(f.store), automaticRefresh: false))
        await #expect(throws: SessionError.anonymousAccountWouldBeLost) { try await other.signOut() }
        #expect(try await f.storedRefreshToken() == session.refreshToken)
        #expect(await f.fake.count(.logout) == 0)
        await other.shutdown()
    }

    @Test func anAPIsAuthRequiredDoesNotEndAnAnonymousSessionTheAuthServerStillHolds() async throws {
        let (f, session) = try await AnonymousSignInTests.anonymous()
        let events = EventLog(f.client)
        // The API refuses the token, and the refreshed one too, with the contract's AUTH_REQUIRED.
        await f.fake.inject(.gatewayError(status: 401, code: .authRequired), on: .activities, times: 2)
        let (_, response) = try await f.client.send(URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities")))
        #expect(response.statusCode == 401)
        // The auth server was asked (one refresh for the retry, one for its verdict) and still holds the session.
        #expect(await f.fake.count(.refresh) == 2)
        let now = try #require(f.client.currentState.session)
        #expect(now.isAnonymous)
        #expect(now.sessionID == session.sessionID)
        #expect(try await f.storedRefreshToken() == now.refreshToken)
        let seen = await events.finish(f.client)
        #expect(!seen.contains(.signedOut))
        #expect(seen.expiredCount == 0)
    }

    @Test func anAPIsAuthRequiredForAnAnonymousSessionTheAuthServerEndedEndsItByThatVerdict() async throws {
        let (f, _) = try await AnonymousSignInTests.anonymous()
        let events = EventLog(f.client)
        await f.fake.inject(.gatewayError(status: 401, code: .authRequired), on: .activities, times: 2)
        // The retry's refresh goes through (an open gate); the auth server's verdict after it is that the session is over.
        let open = FakeGate()
        await open.open()
        await f.fake.inject(.hold(open), on: .refresh)
        await f.fake.inject(.goTrueError(status: 400, code: .sessionNotFound, message: "Session not found"), on: .refresh)
        await #expect(throws: SessionError.sessionExpired) {
            try await f.client.send(URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities")))
        }
        #expect(f.client.currentState.session == nil)
        #expect(await f.fake.count(.refresh) == 2)
        #expect(await events.finish(f.client).expiredCount == 1)
    }

    @Test func anAPIsSessionExpiredOnAFreshTokenAsksTheAuthServerBeforeEndingAnAnonymousSession() async throws {
        let (f, session) = try await AnonymousSignInTests.anonymous()
        await f.fake.inject(.gatewayError(status: 401, code: .sessionExpired), on: .activities, times: 2)
        await #expect(throws: SessionError.requestRejected) {
            try await f.client.updateProfileCheckedForTests(URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities")))
        }
        #expect(f.client.currentState.session?.sessionID == session.sessionID)
    }
}

extension SessionClient {
    /// A checked authorized request, as the flows send theirs.
    func updateProfileCheckedForTests(_ request: URLRequest) async throws(SessionError) -> (Data, HTTPURLResponse) {
        try await authorizedSend(request, checked: true)
    }
}
