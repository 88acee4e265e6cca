import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// ``OAuthSignIn`` alone, against a recording engine: the checks a
/// token-style callback must pass before anything reaches the engine.
struct OAuthSignInFlowTests {
    static let redirect = URL(string: "myapp://oauth-callback")!

    static func callback(state: String?, sub: String = "user-1", userID: String = "user-1", exp: Date) -> URL {
        var fragment = "access_token=\(AccountScript.jwt(sub: sub, exp: exp))&refresh_token=refresh-1&expires_in=3600&token_type=bearer&user_id=\(userID)"
        if let state { fragment += "&state=\(state)" }
        return URL(string: "myapp://oauth-callback#\(fragment)")!
    }

    /// An engine with a sign-in started `ago` seconds before its now, with `state`.
    static func started(ago: TimeInterval = 60, state: String = "state-1", _ script: [ScriptedResponse] = []) async -> RecordingEngine {
        let engine = RecordingEngine(script)
        let now = await engine.now
        await engine.set(pending: .init(verifier: "verifier-1", state: state, startedAt: now.addingTimeInterval(-ago)))
        return engine
    }

    @Test func startSavesTheVerifierAndStateBeforeReturningTheURL() async throws {
        let engine = RecordingEngine()
        let url = try await OAuthSignIn().start(provider: "strava", redirectTo: Self.redirect, scopes: [], on: engine)
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let pending = try #require(await engine.pendingOAuth)
        #expect(await engine.calls == [.beginOAuth])
        // GoTrue's code flow is bound by PKCE; the state is for token-style callbacks.
        #expect(pending.state?.isEmpty == false)
        #expect(pending.state != pending.verifier)
        #expect(query.first { $0.name == "code_challenge" }?.value == PKCE.challenge(for: pending.verifier))
        #expect(pending.startedAt == (await engine.now))
    }

    @Test func refusesAnEmptyProviderWithoutStartingAnything() async {
        let engine = RecordingEngine()
        await #expect(throws: SessionError.invalidRequest) {
            try await OAuthSignIn().start(provider: "", redirectTo: Self.redirect, scopes: [], on: engine)
        }
        #expect(await engine.calls.isEmpty)
    }

    @Test func refusesTokensWhenNoSignInWasStartedHere() async {
        let engine = RecordingEngine([AccountScript.userBody()])
        let now = await engine.now
        await #expect(throws: SessionError.oauthFlowUnknown) {
            try await OAuthSignIn().finish(Self.callback(state: "state-1", exp: now.addingTimeInterval(3600)), on: engine)
        }
        #expect(await engine.calls.isEmpty)
        #expect(await engine.requests.isEmpty)
    }

    @Test func refusesTokensAfterTheThirtyMinuteWindow() async {
        let engine = await Self.started(ago: OAuthSignIn.callbackWindow + 1, [AccountScript.userBody()])
        let now = await engine.now
        await #expect(throws: SessionError.oauthFlowExpired) {
            try await OAuthSignIn().finish(Self.callback(state: "state-1", exp: now.addingTimeInterval(3600)), on: engine)
        }
        #expect(await engine.calls.isEmpty)
    }

    @Test func acceptsTokensJustInsideTheWindow() async throws {
        let engine = await Self.started(ago: OAuthSignIn.callbackWindow, [AccountScript.userBody()])
        let now = await engine.now
        let session = try await OAuthSignIn().finish(Self.callback(state: "state-1", exp: now.addingTimeInterval(3600)), on: engine)
        #expect(session.user?.id == "user-1")
        #expect(await engine.calls == [.establish(session, keepingUnsaved: true)])
    }

    @Test(arguments: [nil, "state-2"])
    func refusesTokensWhoseStateIsNotTheOneSaved(state: String?) async {
        let engine = await Self.started([AccountScript.userBody()])
        let now = await engine.now
        await #expect(throws: SessionError.oauthCallbackInvalid) {
            try await OAuthSignIn().finish(Self.callback(state: state, exp: now.addingTimeInterval(3600)), on: engine)
        }
        #expect(await engine.calls.isEmpty)
        #expect(await engine.requests.isEmpty)
    }

    @Test func refusesAnAccessTokenOfAnotherSubjectBeforeAskingTheServer() async {
        let engine = await Self.started([AccountScript.userBody()])
        let now = await engine.now
        await #expect(throws: SessionError.oauthCallbackInvalid) {
            try await OAuthSignIn().finish(
                Self.callback(state: "state-1", sub: "someone-else", exp: now.addingTimeInterval(3600)), on: engine)
        }
        #expect(await engine.calls.isEmpty)
        #expect(await engine.requests.isEmpty)
    }

    @Test func refusesAConfirmationThatNamesAnotherUser() async {
        let other = SessionUser(id: "user-2", email: "eve@example.com", createdAt: nil, updatedAt: nil)
        let engine = await Self.started([AccountScript.userBody(other)])
        let now = await engine.now
        await #expect(throws: SessionError.oauthCallbackInvalid) {
            try await OAuthSignIn().finish(Self.callback(state: "state-1", exp: now.addingTimeInterval(3600)), on: engine)
        }
        #expect(await engine.calls.isEmpty)
    }

    @Test func keepsAnUnconfirmedSessionAndConfirmsItInTheBackground() async throws {
        let engine = await Self.started([.answer(status: 503)])
        let now = await engine.now
        let session = try await OAuthSignIn().finish(Self.callback(state: "state-1", exp: now.addingTimeInterval(3600)), on: engine)
        #expect(await engine.calls == [.establish(session, keepingUnsaved: true), .checkInBackground])
        // The background check asks the server again, with the new token.
        await engine.transport.enqueue(AccountScript.userBody())
        let check = try #require(await engine.backgroundCheck)
        let user = try await check(engine, session)
        #expect(user.id == "user-1")
        let last = try #require(await engine.requests.last)
        #expect(last.value(forHTTPHeaderField: "Authorization") == "Bearer \(session.accessToken)")
    }
}
