import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// `signInAnonymously` against the fake's GoTrue anonymous sign-up, and the
/// sign-out guard that keeps an anonymous account from being thrown away.
struct AnonymousSignInTests {
    static func anonymous() async throws -> (Fixture, Session) {
        let f = await Fixture.make()
        await f.fake.setAnonymousSignIns(true)
        let session = try await f.client.signInAnonymously(data: ["plan": "trial"])
        return (f, session)
    }

    @Test func anAnonymousSignInIsEstablishedAndSaysSo() async throws {
        let (f, session) = try await Self.anonymous()
        #expect(session.isAnonymous)
        #expect(session.user?.isAnonymous == true)
        #expect(session.user?.email == nil)
        #expect(session.user?.userMetadata["plan"] == "trial")
        #expect(AnonymityClaim.of(session.accessToken) == true)
        #expect(AssuranceClaims(accessToken: session.accessToken)?.amr?.map(\.method) == ["anonymous"])
        // Established like every sign-in: current, saved.
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.storedRefreshToken() == session.refreshToken)
        #expect(await f.fake.count(.signUp) == 1)
        // It refreshes like any session, and stays anonymous.
        let refreshed = try await f.client.refresh()
        #expect(refreshed.isAnonymous)
        #expect(refreshed.sessionID == session.sessionID)
    }

    @Test func theRequestCarriesNeitherEmailNorPasswordOnlyTheDataAndCaptcha() async throws {
        let engine = RecordingEngine([.answer(status: 500)])
        await #expect(throws: SessionError.server) {
            try await AnonymousSignIn().signIn(data: ["a": 1], captchaToken: "captcha-1", on: engine)
        }
        let request = try #require(await engine.requests.first)
        #expect(request.url?.path == "/auth/v1/signup")
        #expect(request.httpMethod == "POST")
        let body = try #require(request.httpBody.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        #expect(Set(body.keys) == ["data", "gotrue_meta_security"])
        #expect((body["gotrue_meta_security"] as? [String: String])?["captcha_token"] == "captcha-1")
        #expect(await engine.calls.isEmpty)
    }

    @Test func anonymousSignInsSwitchedOffAreUnsupportedAndNothingChanges() async throws {
        let f = await Fixture.make()
        let error = await #expect(throws: SessionError.unsupported) { try await f.client.signInAnonymously() }
        #expect(error?.goTrueErrorCode == AnonymousSignIn.disabled)
        #expect(error?.status == 422)
        #expect(!f.client.currentState.isSignedIn)
        #expect(try await f.store.load()?.holdsSession != true)
    }

    @Test func aBackendThatIsNotGoTrueIsUnsupportedAndNothingIsSent() async {
        let custom = CustomBackend(refreshURL: URL(string: "https://api.example.com/refresh")!, meURL: URL(string: "https://api.example.com/me")!)
        let engine = RecordingEngine(backend: custom, [.answer(status: 200)])
        await #expect(throws: SessionError.unsupported) { try await AnonymousSignIn().signIn(data: nil, captchaToken: nil, on: engine) }
        #expect(await engine.requests.isEmpty)
        #expect(await engine.calls.isEmpty)
    }

    @Test(arguments: [200, 401, 502])
    func aProxysHTMLPageIsATypedErrorAndNoSession(status: Int) async {
        let html = Data("<html><body>Please sign in to the Wi-Fi</body></html>".utf8)
        let engine = RecordingEngine([.answer(status: status, body: html, headers: ["Content-Type": "text/html"])])
        let error = await #expect(throws: SessionError.self) { try await AnonymousSignIn().signIn(data: nil, captchaToken: nil, on: engine) }
        #expect(error != nil)
        #expect(error?.status == (status == 200 ? nil : status))
        #expect(await engine.calls.isEmpty)
    }

    @Test func aSessionWithoutAUserReadsAnonymityFromTheToken() async throws {
        let (_, session) = try await Self.anonymous()
        let bare = Session(response: TokenResponse(accessToken: session.accessToken, expiresIn: 3600, expiresAt: nil, refreshToken: "r", user: nil), serverNow: Date())
        #expect(bare.user?.isAnonymous == true)
        #expect(bare.isAnonymous)
        // The user's word wins when there is one (a later `me()` after an upgrade elsewhere).
        var upgraded = session
        upgraded.user?.isAnonymous = false
        #expect(!upgraded.isAnonymous)
        #expect(!Session(accessToken: "opaque", refreshToken: "r", expiresAt: Date()).isAnonymous)
    }
}
