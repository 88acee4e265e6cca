import Foundation

/// Signs in with an OAuth provider in a web authentication session, end to
/// end: ``SessionClient/signInWithOAuth(provider:redirectTo:scopes:)`` (PKCE
/// verifier saved), the provider's page in the presenter, the callback back
/// to ``SessionClient/handleOAuthCallback(_:)`` (code exchanged, session saved
/// and confirmed).
///
/// ```swift
/// let session = try await WebOAuthSignIn(client: client, presenter: SystemWebAuthenticationPresenter())
///     .signIn(provider: "strava", redirectTo: URL(string: "myapp://oauth-callback")!)
/// ```
///
/// `redirectTo` must use a custom scheme the app declares (`CFBundleURLTypes`)
/// and be on the server's redirect allow-list.
public struct WebOAuthSignIn: Sendable {
    public let client: SessionClient
    public let presenter: any WebAuthenticationPresenter

    public init(client: SessionClient, presenter: any WebAuthenticationPresenter) {
        self.client = client
        self.presenter = presenter
    }

    /// Runs the whole sign-in and returns the new session.
    ///
    /// - Throws: ``SessionError/invalidRequest`` when `redirectTo` has no
    ///   custom scheme; ``SessionError/oauthDenied`` when the person closed
    ///   the sheet or declined at the provider; ``SessionError/oauthFailed``
    ///   when the sheet could not be shown; ``SessionError/oauthCallbackInvalid``
    ///   when the browser came back to another address; and everything
    ///   ``SessionClient/handleOAuthCallback(_:)`` throws. In every case the
    ///   client's existing session, if any, is left as it was.
    @discardableResult
    public func signIn(provider: String, redirectTo: URL, scopes: [String] = []) async throws(SessionError) -> Session {
        let scheme = try Self.callbackScheme(of: redirectTo)
        let url = try await client.signInWithOAuth(provider: provider, redirectTo: redirectTo, scopes: scopes)
        let callback: URL
        do {
            callback = try await presenter.present(url, callbackScheme: scheme)
        } catch {
            throw Self.sessionError(for: error)
        }
        try Self.check(callback, answers: redirectTo)
        return try await client.handleOAuthCallback(callback)
    }

    /// The custom scheme of `redirectTo`, which ends the web session.
    static func callbackScheme(of redirectTo: URL) throws(SessionError) -> String {
        guard let scheme = redirectTo.scheme?.lowercased(), !scheme.isEmpty, !["http", "https"].contains(scheme) else {
            throw SessionError.invalidRequest.with(
                message: "The OAuth redirect must use the app's own URL scheme, such as myapp://oauth-callback.")
        }
        return scheme
    }

    /// The callback must come back to `redirectTo` (its scheme and host): a
    /// URL for another address is not this sign-in's answer.
    static func check(_ callback: URL, answers redirectTo: URL) throws(SessionError) {
        let sameScheme = callback.scheme?.lowercased() == redirectTo.scheme?.lowercased()
        let sameHost = (callback.host?.lowercased() ?? "") == (redirectTo.host?.lowercased() ?? "")
        guard sameScheme, sameHost else {
            throw SessionError.oauthCallbackInvalid.with(
                message: "The sign-in came back to an unexpected address. Please start the sign-in again.",
                underlying: "expected \(redirectTo.scheme ?? "-")://\(redirectTo.host ?? ""), got \(callback.scheme ?? "-")://\(callback.host ?? "")")
        }
    }

    static func sessionError(for error: WebAuthenticationError) -> SessionError {
        if error == .cancelled {
            return SessionError.oauthDenied.with(
                message: "The sign-in was cancelled. You can try again whenever you like.", underlying: error.description)
        }
        return SessionError.oauthFailed.with(
            message: "The sign-in page could not be shown. Please try again.", underlying: error.description)
    }
}
