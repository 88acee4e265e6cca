import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// OAuth in a web authentication session, end to end through a scripted
/// presenter: the PKCE flow to a saved session, or a typed error with the
/// existing session kept.
struct WebOAuthSignInTests {
    static let redirect = URL(string: "myapp://oauth-callback")!
    static let oauthEmail = "grace@example.com"

    @Test func signsInEndToEnd() async throws {
        let f = await Fixture.make()
        let presenter = ScriptedWebAuthenticationPresenter(.approve(at: f.fake, email: Self.oauthEmail))
        let session = try await WebOAuthSignIn(client: f.client, presenter: presenter)
            .signIn(provider: "strava", redirectTo: Self.redirect)
        #expect(session.user?.email == Self.oauthEmail)
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
        #expect(await f.fake.count(.pkceGrant) == 1)
        let shown = try #require(await presenter.presentations.first)
        #expect(shown.callbackScheme == "myapp")
        #expect(shown.url.path == "/auth/v1/authorize")
    }

    @Test func closingTheSheetIsDeniedAndKeepsTheSession() async throws {
        let f = await Fixture.make()
        let existing = try await f.signIn()
        let presenter = ScriptedWebAuthenticationPresenter(.cancel)
        let error = await #expect(throws: SessionError.oauthDenied) {
            try await WebOAuthSignIn(client: f.client, presenter: presenter).signIn(provider: "strava", redirectTo: Self.redirect)
        }
        #expect(error?.message.contains("cancelled") == true)
        #expect(f.client.currentState == .signedIn(existing))
        #expect(try await f.store.load()?.refreshToken == existing.refreshToken)
        #expect(await f.fake.count(.pkceGrant) == 0)
    }

    @Test func decliningAtTheProviderIsDenied() async throws {
        let f = await Fixture.make()
        let presenter = ScriptedWebAuthenticationPresenter(.deny(at: f.fake))
        await #expect(throws: SessionError.oauthDenied) {
            try await WebOAuthSignIn(client: f.client, presenter: presenter).signIn(provider: "strava", redirectTo: Self.redirect)
        }
        #expect(try await f.store.load()?.holdsSession != true)
    }

    @Test func aSheetThatCannotBeShownFails() async throws {
        let f = await Fixture.make()
        await #expect(throws: SessionError.oauthFailed) {
            try await WebOAuthSignIn(client: f.client, presenter: ScriptedWebAuthenticationPresenter(.fail))
                .signIn(provider: "strava", redirectTo: Self.redirect)
        }
    }

    /// A code delivered to another app's address is not this sign-in's answer: refused before it is exchanged.
    @Test(arguments: ["evil://oauth-callback?code=abc", "myapp://elsewhere?code=abc", "https://oauth-callback/?code=abc"])
    func aCallbackToAnotherAddressIsRefused(callback: String) async throws {
        let f = await Fixture.make()
        let presenter = ScriptedWebAuthenticationPresenter(.redirect(to: try #require(URL(string: callback))))
        await #expect(throws: SessionError.oauthCallbackInvalid) {
            try await WebOAuthSignIn(client: f.client, presenter: presenter).signIn(provider: "strava", redirectTo: Self.redirect)
        }
        #expect(await f.fake.count(.pkceGrant) == 0)
        #expect(await f.client.currentSession == nil)
    }

    @Test(arguments: ["https://example.com/callback", "http://127.0.0.1:8123/callback"])
    func aWebRedirectIsRefusedBeforeAnythingStarts(redirect: String) async throws {
        let f = await Fixture.make()
        let presenter = ScriptedWebAuthenticationPresenter(.cancel)
        await #expect(throws: SessionError.invalidRequest) {
            try await WebOAuthSignIn(client: f.client, presenter: presenter)
                .signIn(provider: "strava", redirectTo: try #require(URL(string: redirect)))
        }
        #expect(await presenter.presentations.isEmpty)
        #expect(try await f.store.load() == nil)
    }

    @Test func theModelSignsInThroughThePresenter() async throws {
        let f = await Fixture.make()
        let model = await SessionModel(client: f.client)
        let presenter = ScriptedWebAuthenticationPresenter(.cancel)
        #expect(await model.signIn(provider: "strava", redirectTo: Self.redirect, presenter: presenter) == false)
        #expect(await model.lastError == .oauthDenied)
        let approving = ScriptedWebAuthenticationPresenter(.approve(at: f.fake, email: Self.oauthEmail))
        #expect(await model.signIn(provider: "strava", redirectTo: Self.redirect, presenter: approving))
        #expect(await f.client.currentSession?.user?.email == Self.oauthEmail)
    }
}
