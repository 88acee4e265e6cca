import Foundation

/// Shows a sign-in page and hands back the URL the browser was redirected to:
/// `ASWebAuthenticationSession` on Apple platforms
/// (`SystemWebAuthenticationPresenter`), a fake in tests.
public protocol WebAuthenticationPresenter: Sendable {
    /// Shows `url` until the browser is sent to a URL with `callbackScheme`.
    ///
    /// - Parameters:
    ///   - url: the provider's authorization URL (from ``SessionClient/signInWithOAuth(provider:redirectTo:scopes:)``).
    ///   - callbackScheme: the custom scheme that ends the session (`myapp` for `myapp://oauth-callback`).
    /// - Returns: the callback URL.
    /// - Throws: ``WebAuthenticationError/cancelled`` when the person closed the
    ///   sheet; ``WebAuthenticationError/presentationFailed`` when it could not be shown.
    func present(_ url: URL, callbackScheme: String) async throws(WebAuthenticationError) -> URL
}
