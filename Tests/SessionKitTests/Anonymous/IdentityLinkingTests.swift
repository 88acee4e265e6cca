import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// Plays the provider's page for a linking URL: approves it at the fake as `subject`,
/// running `whileOpen` first (a sign-out while the page is shown, say).
actor LinkingPresenter: WebAuthenticationPresenter {
    let fake: FakeAuthBackend
    let subject: String
    let whileOpen: @Sendable () async -> Void
    private(set) var shown: [URL] = []

    init(_ fake: FakeAuthBackend, subject: String, whileOpen: @escaping @Sendable () async -> Void = {}) {
        self.fake = fake
        self.subject = subject
        self.whileOpen = whileOpen
    }

    func present(_ url: URL, callbackScheme: String) async throws(WebAuthenticationError) -> URL {
        shown.append(url)
        await whileOpen()
        do {
            return try await fake.approveLink(url, subject: subject)
        } catch {
            throw WebAuthenticationError.presentationFailed.with(detail: "\(error)")
        }
    }
}

/// Issue 40, items 5 and 7: linking a provider (through the presenter, or Apple's ID
/// token) continues the same session; unlinking never removes the last identity.
struct IdentityLinkingTests {
    static let redirect = URL(string: "myapp://link-callback")!

    @Test func anAnonymousPersonLinksAProviderAndKeepsTheSameSession() async throws {
        let (f, anonymous) = try await AnonymousSignInTests.anonymous()
        let presenter = LinkingPresenter(f.fake, subject: "github-42")
        let session = try await f.client.linkIdentity(provider: "github", redirectTo: Self.redirect, presenter: presenter)
        #expect(session.user?.id == anonymous.user?.id)
        #expect(session.sessionID == anonymous.sessionID)
        #expect(session.refreshToken != anonymous.refreshToken)
        #expect(!session.isAnonymous)
        #expect(session.user?.identities?.map(\.provider) == ["github"])
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.storedRefreshToken() == session.refreshToken)
        #expect(await f.fake.isFamilyActive(refreshToken: session.refreshToken))
        // GoTrue's linking URL: the bearer's user, PKCE, no redirect.
        let shown = try #require(await presenter.shown.first)
        #expect(shown.host == "github.provider.test")
        #expect(try await f.client.userIdentities().map(\.provider) == ["github"])
        try await f.client.signOut()
    }

    @Test func theAuthorizeRequestIsGoTruesWithTheBearerAndPKCE() async throws {
        let engine = await AccountUpgradeWireTests.signedIn([.answer(status: 500)])
        let presenter = ScriptedWebAuthenticationPresenter(.cancel)
        await #expect(throws: SessionError.server) {
            try await IdentityLinking().link(provider: "github", redirectTo: Self.redirect, scopes: ["repo"], presenter: presenter, on: engine)
        }
        let request = try #require(await engine.requests.first)
        #expect(request.url?.path == "/auth/v1/user/identities/authorize")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer access-1")
        let items = URLComponents(url: try #require(request.url), resolvingAgainstBaseURL: false)?.queryItems ?? []
        let query = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
        #expect(query["provider"] == "github")
        #expect(query["skip_http_redirect"] == "true")
        #expect(query["code_challenge_method"] == "s256")
        #expect(query["redirect_to"] == Self.redirect.absoluteString)
        #expect(query["scopes"] == "repo")
        #expect(query["code_challenge"]?.isEmpty == false)
        #expect(await engine.calls.isEmpty)
    }

    @Test func anIdentityAnotherUserHoldsIsTypedAndNothingChanges() async throws {
        let (f, _) = try await AnonymousSignInTests.anonymous()
        _ = try await f.client.linkIdentity(provider: "github", redirectTo: Self.redirect, presenter: LinkingPresenter(f.fake, subject: "gh-1"))
        try await f.client.signOut()
        let other = try await f.client.signInAnonymously()
        let error = await #expect(throws: SessionError.identityAlreadyLinked) {
            try await f.client.linkIdentity(provider: "github", redirectTo: Self.redirect, presenter: LinkingPresenter(f.fake, subject: "gh-1"))
        }
        #expect(error?.goTrueErrorCode?.rawValue == "identity_already_exists")
        #expect(f.client.currentState == .signedIn(other))
        #expect(f.client.currentState.session?.isAnonymous == true)
    }

    @Test func aSignOutWhileTheProvidersPageIsOpenIsNotUndone() async throws {
        let (f, _) = try await AnonymousSignInTests.anonymous()
        let client = f.client
        let presenter = LinkingPresenter(f.fake, subject: "gh-2") {
            do {
                try await client.signOut(discardingAnonymousAccount: true)
            } catch {
                Issue.record("sign-out failed: \(error)")
            }
        }
        await #expect(throws: SessionError.notSignedIn) {
            try await f.client.linkIdentity(provider: "github", redirectTo: Self.redirect, presenter: presenter)
        }
        #expect(f.client.currentState == .signedOut)
        #expect(try await f.store.load()?.holdsSession != true)
    }

    @Test func appleIDTokenLinksToTheSameSession() async throws {
        let (f, anonymous) = try await AnonymousSignInTests.anonymous()
        let nonce = AppleSignInNonce()
        let token = await f.fake.appleIDToken(sub: "001.apple", email: "ada@privaterelay.appleid.com", nonce: nonce.raw)
        let session = try await f.client.linkIdentityWithIdToken(idToken: token, nonce: nonce.raw)
        #expect(session.sessionID == anonymous.sessionID)
        #expect(!session.isAnonymous)
        #expect(session.user?.identities?.map(\.provider) == ["apple"])
        #expect(f.client.currentState == .signedIn(session))
        // A token for a nonce that does not match is refused as a credential, never as the end of the session.
        let bad = await f.fake.appleIDToken(sub: "002.apple", email: nil, nonce: "other")
        await #expect(throws: SessionError.invalidCredentials) { try await f.client.linkIdentityWithIdToken(idToken: bad, nonce: nonce.raw) }
        #expect(f.client.currentState == .signedIn(session))
    }

    @Test func theLastIdentityIsNeverUnlinkedAndAnotherIs() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        _ = try await f.client.linkIdentity(provider: "github", redirectTo: Self.redirect, presenter: LinkingPresenter(f.fake, subject: "gh-3"))
        let identities = try await f.client.userIdentities()
        #expect(identities.map(\.provider) == ["email", "github"])
        let github = try #require(identities.first { $0.provider == "github" })
        try await f.client.unlinkIdentity(github)
        let left = try await f.client.userIdentities()
        #expect(left.map(\.provider) == ["email"])
        #expect(f.client.currentState.session?.user?.identities?.map(\.provider) == ["email"])
        await #expect(throws: SessionError.lastIdentity) { try await f.client.unlinkIdentity(left[0]) }
        await #expect(throws: SessionError.notFound) { try await f.client.unlinkIdentity(github) }
        #expect(f.client.currentState.isSignedIn)
    }

    @Test func anIdentityIdThatWouldChangeThePathIsRefusedUnsent() async throws {
        let engine = await AccountUpgradeWireTests.signedIn([.answer(status: 200, body: Data("{}".utf8))])
        let hostile = UserIdentity(id: "x", identityId: "../../admin/users", userId: "user-1", provider: "github")
        await #expect(throws: SessionError.invalidRequest) { try await IdentityLinking().unlink(hostile, on: engine) }
        #expect(await engine.requests.isEmpty)
    }

    @Test func aBackendThatIsNotGoTrueIsUnsupportedAndNothingIsSent() async {
        let engine = await AccountUpgradeWireTests.signedIn([.answer(status: 200)], backend: AccountUpgradeWireTests.custom)
        let presenter = ScriptedWebAuthenticationPresenter(.cancel)
        await #expect(throws: SessionError.unsupported) {
            try await IdentityLinking().link(provider: "github", redirectTo: Self.redirect, scopes: [], presenter: presenter, on: engine)
        }
        await #expect(throws: SessionError.unsupported) { try await IdentityLinking().link(idToken: "t", provider: "apple", nonce: nil, on: engine) }
        await #expect(throws: SessionError.unsupported) {
            try await IdentityLinking().unlink(UserIdentity(id: "a", identityId: "b", userId: "c", provider: "github"), on: engine)
        }
        #expect(await engine.requests.isEmpty)
        #expect(await presenter.presentations.isEmpty)
    }

    @Test(arguments: [200, 403, 502])
    func aProxysHTMLPageInsteadOfTheLinkingURLIsTypedAndNothingIsShown(status: Int) async throws {
        let html = Data("<html><body>Sign in to the network</body></html>".utf8)
        let engine = await AccountUpgradeWireTests.signedIn([.answer(status: status, body: html, headers: ["Content-Type": "text/html"])])
        let presenter = ScriptedWebAuthenticationPresenter(.cancel)
        let error = await #expect(throws: SessionError.self) {
            try await IdentityLinking().link(provider: "github", redirectTo: Self.redirect, scopes: [], presenter: presenter, on: engine)
        }
        #expect(error != nil && error != .sessionExpired)
        #expect(await presenter.presentations.isEmpty)
        #expect(await engine.calls.isEmpty)
    }
}
