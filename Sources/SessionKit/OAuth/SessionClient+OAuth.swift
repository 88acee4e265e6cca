import Foundation

/// Signing in with an OAuth provider (Strava and the like), with PKCE.
///
/// ```swift
/// let url = try await client.signInWithOAuth(provider: "strava", redirectTo: URL(string: "myapp://oauth")!)
/// // open `url` (ASWebAuthenticationSession, or a browser from a CLI); when the app receives the redirect:
/// let session = try await client.handleOAuthCallback(callbackURL)
/// ```
///
/// The flow ends with a verified, stored session (confirmed with the server,
/// or being confirmed in the background when it could not answer) or a typed
/// ``SessionError`` with nothing stored.
extension SessionClient {
    /// Starts an OAuth sign-in and returns the URL to open.
    ///
    /// A new PKCE verifier and a random `state` are saved in the store
    /// (verified, as its next record, beside the stored session if there is
    /// one) before this returns, so the flow survives the app being killed
    /// while the browser is open. A loopback `redirectTo`
    /// (`http://127.0.0.1:PORT/callback`) works for CLIs.
    ///
    /// - Parameters:
    ///   - provider: the provider's name on the server (`strava`).
    ///   - redirectTo: where the server sends the person back; must be on the server's allow-list.
    ///   - scopes: scopes to ask for; empty uses the server's defaults for the provider.
    /// - Throws: ``SessionError/unsupported`` (backend without OAuth),
    ///   ``SessionError/storeUnavailable`` or ``SessionError/persistenceFailed`` (nothing started).
    public func signInWithOAuth(provider: String, redirectTo: URL, scopes: [String] = []) async throws(SessionError) -> URL {
        try await OAuthSignIn().start(provider: provider, redirectTo: redirectTo, scopes: scopes, on: self)
    }

    /// Finishes an OAuth sign-in from the redirect the app received.
    ///
    /// Reads `code` (PKCE) or, from backends that return them directly,
    /// `access_token`, `refresh_token`, `expires_in`, `user_id` and `state`,
    /// in the query or the fragment. The new session is confirmed with the
    /// server (`/v1/auth/me`, or `/auth/v1/user` where the server has no
    /// gateway) before it replaces the current one, then saved (verified).
    /// A confirmation that names another user, or that the server refuses,
    /// throws and leaves the session the person already had untouched. One
    /// that times out or meets a 5xx keeps the new session (the code is
    /// spent: the tokens cannot be had again) and is retried in the background.
    ///
    /// Token-style callbacks are accepted only while a sign-in started by
    /// this client is pending, within 30 minutes, with the `state` it saved:
    /// otherwise any web page could sign the person into someone else's account.
    ///
    /// - Throws: ``SessionError/oauthDenied``, ``SessionError/oauthFailed``,
    ///   ``SessionError/oauthCallbackInvalid`` (the message names the field),
    ///   ``SessionError/oauthFlowUnknown`` (not started here, or the code was
    ///   already used), ``SessionError/oauthFlowExpired``,
    ///   ``SessionError/oauthVerifierMismatch``, or a network/server/persistence
    ///   error before the tokens were in hand. In every such case nothing is
    ///   stored and an existing session is left as it was.
    @discardableResult
    public func handleOAuthCallback(_ url: URL) async throws(SessionError) -> Session {
        try await OAuthSignIn().finish(url, on: self)
    }
}
