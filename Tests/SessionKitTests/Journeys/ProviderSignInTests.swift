import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// A provider sign-in started while someone is signed in: the new session is
/// confirmed before it replaces theirs, so a refused one changes nothing
/// (the errors article: "a failed provider sign-in never touches the session
/// the person already has").
@Suite(.timeLimit(.minutes(1)))
struct ProviderSignInTests {
    static let redirect = URL(string: "myapp://oauth-callback")!

    static let refusals: [FakeFault] = [
        .gatewayError(status: 403, code: .forbidden),
        .goTrueError(status: 403, code: .userBanned),
        // The server confirms someone else than the callback's user.
        .body(Data(#"{"id":"7d1e0c2a-someone-else","aud":"authenticated","role":"authenticated","email":"eve@example.com"}"#.utf8)),
    ]

    @Test(arguments: refusals)
    func aRefusedConfirmationLeavesTheExistingSessionUntouched(fault: FakeFault) async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        let existing = try await f.signIn()
        let stored = try #require(try await f.store.load())
        let url = try await f.client.signInWithOAuth(provider: "strava", redirectTo: Self.redirect)
        let callback = try await f.fake.approveOAuth(url, email: "grace@example.com")
        await f.fake.inject(fault, on: .me, times: 3)

        await #expect(throws: SessionError.self) { try await f.client.handleOAuthCallback(callback) }
        #expect(await f.client.currentSession == existing)
        #expect(f.client.currentState == .signedIn(existing))
        #expect(try await f.store.load()?.refreshToken == stored.refreshToken)
        #expect(await f.fake.isFamilyActive(refreshToken: existing.refreshToken))
        let seen = await events.finish(f.client)
        #expect(!seen.contains(.signedOut))
        #expect(seen.filter { if case .signedIn = $0 { true } else { false } }.count == 1)
    }
}
