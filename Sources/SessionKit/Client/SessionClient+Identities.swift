import Foundation
import SessionCore

/// Linked identities of the signed-in user (docs/ACCOUNTS.md, "Linking identities (SDK)").
extension SessionClient {
    /// Links a provider's account to the signed-in user, as supabase-swift's
    /// `linkIdentity(provider:)`: the server's linking page is shown with `presenter`
    /// (`SystemWebAuthenticationPresenter` on Apple platforms), and the code it
    /// returns is exchanged for the same session, continued (same id, same refresh
    /// family), with the identity in its user. An anonymous person becomes permanent.
    ///
    /// - Parameters:
    ///   - provider: the provider's name on the server (`github`, `strava`, …).
    ///   - redirectTo: the app's callback, on its own URL scheme (allowed on the server).
    ///   - scopes: extra provider scopes.
    ///   - presenter: shows the page and returns the callback.
    /// - Returns: the session after the link (saved before this returns).
    /// - Throws: ``SessionError/identityAlreadyLinked`` (that account is someone else's:
    ///   accounts are never merged), ``SessionError/oauthDenied`` (cancelled),
    ///   ``SessionError/notSignedIn`` (also when the person signed out while the page
    ///   was open), ``SessionError/unsupported`` (a backend other than GoTrue; a server
    ///   with manual linking off answers its own error). Nothing changes on a throw.
    @discardableResult
    public func linkIdentity(
        provider: String, redirectTo: URL, scopes: [String] = [], presenter: any WebAuthenticationPresenter
    ) async throws(SessionError) -> Session {
        try await IdentityLinking().link(provider: provider, redirectTo: redirectTo, scopes: scopes, presenter: presenter, on: self)
    }

    /// Links the ID token a provider gave the app (Sign in with Apple's), as supabase-swift's
    /// `linkIdentityWithIdToken`: the same session continues with the identity in its user.
    ///
    /// - Parameters:
    ///   - provider: `apple`.
    ///   - idToken: the provider's ID token.
    ///   - nonce: the raw nonce the token is bound to.
    /// - Throws: ``SessionError/identityAlreadyLinked``, ``SessionError/invalidCredentials``
    ///   (a token the server refused), and what ``linkIdentity(provider:redirectTo:scopes:presenter:)`` throws.
    @discardableResult
    public func linkIdentityWithIdToken(provider: String = "apple", idToken: String, nonce: String?) async throws(SessionError) -> Session {
        try await IdentityLinking().link(idToken: idToken, provider: provider, nonce: nonce, on: self)
    }

    /// Unlinks an identity from the signed-in user, as supabase-swift's `unlinkIdentity(_:)`;
    /// the user is read again afterwards (``SessionEvent/userUpdated(_:)``).
    ///
    /// - Throws: ``SessionError/lastIdentity`` (the only way to sign in: never removed),
    ///   ``SessionError/notFound`` (not linked to this user), ``SessionError/unsupported``.
    public func unlinkIdentity(_ identity: UserIdentity) async throws(SessionError) {
        try await IdentityLinking().unlink(identity, on: self)
    }

    /// The identities linked to the signed-in user, read from the server (`GET /user`),
    /// which also refreshes the session's user; as supabase-swift's `userIdentities()`.
    public func userIdentities() async throws(SessionError) -> [UserIdentity] {
        try await IdentityLinking().identities(on: self)
    }
}
