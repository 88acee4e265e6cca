#if canImport(Observation)
import Foundation
import SessionCore

extension SessionModel {
    /// True while the signed-in person is anonymous (``Session/isAnonymous``).
    /// They are signed in (``SessionModel/phase`` is ``SessionModel/Phase/signedIn``):
    /// show the app, and offer to keep the account (an email, a linked provider).
    public var isAnonymous: Bool { state.session?.isAnonymous ?? false }

    /// Starts the person as an anonymous user (``SessionClient/signInAnonymously(data:captchaToken:)``).
    ///
    /// - Returns: whether it succeeded; otherwise ``lastError`` says why.
    @discardableResult
    public func signInAnonymously(data: [String: JSONValue]? = nil, captchaToken: String? = nil) async -> Bool {
        await perform { client throws(SessionError) in
            _ = try await client.signInAnonymously(data: data, captchaToken: captchaToken)
        }
    }

    /// Redeems a code an email change mailed (``SessionClient/verifyEmailChange(email:code:)``):
    /// for an anonymous person, the one that makes the account permanent.
    ///
    /// - Returns: what it came to (done, or one more confirmation needed), or `nil` when
    ///   it failed; ``lastError`` then says why (``SessionError/codeInvalid`` for a wrong code).
    @discardableResult
    public func verifyEmailChange(email: String, code: String) async -> EmailChangeVerification? {
        await attempt { client throws(SessionError) in try await client.verifyEmailChange(email: email, code: code) }
    }

    /// Links a provider's account (``SessionClient/linkIdentity(provider:redirectTo:scopes:presenter:)``):
    /// for an anonymous person, a way to keep the account.
    ///
    /// - Returns: whether it succeeded; otherwise ``lastError`` says why
    ///   (``SessionError/identityAlreadyLinked``, ``SessionError/oauthDenied``).
    @discardableResult
    public func linkIdentity(
        provider: String, redirectTo: URL, scopes: [String] = [], presenter: any WebAuthenticationPresenter
    ) async -> Bool {
        await perform { client throws(SessionError) in
            _ = try await client.linkIdentity(provider: provider, redirectTo: redirectTo, scopes: scopes, presenter: presenter)
        }
    }

    /// Signs out, discarding an anonymous account only when `discardingAnonymousAccount` is `true`
    /// (``SessionClient/signOut(scope:discardingAnonymousAccount:)``). ``signOut(scope:)`` refuses
    /// an anonymous session with ``SessionError/anonymousAccountWouldBeLost`` in ``lastError``.
    @discardableResult
    public func signOut(scope: SignOutScope = .local, discardingAnonymousAccount: Bool) async -> Bool {
        await perform { client throws(SessionError) in
            try await client.signOut(scope: scope, discardingAnonymousAccount: discardingAnonymousAccount)
        }
    }
}
#endif
