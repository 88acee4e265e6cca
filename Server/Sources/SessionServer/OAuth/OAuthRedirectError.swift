import SessionCore

/// A failed OAuth flow, told to the app at its `redirect_to` as GoTrue does:
/// `?error=…&error_code=…&error_description=…`.
struct OAuthRedirectError: Error, Sendable, Hashable {
    /// The OAuth 2.0 error (`access_denied`, `server_error`, `invalid_request`).
    var error: String
    /// GoTrue's finer code.
    var errorCode: GoTrueErrorCode
    /// What happened, for the person and the developer (never a token or code).
    var description: String

    /// The person refused at the provider.
    static func denied(_ providerDescription: String?) -> OAuthRedirectError {
        OAuthRedirectError(
            error: "access_denied", errorCode: .badOAuthCallback,
            description: providerDescription.map { String($0.prefix(200)) } ?? "The sign-in was cancelled at the provider.")
    }
    /// The provider answered the callback with another error.
    static func provider(_ error: String, _ description: String?) -> OAuthRedirectError {
        let safeError = error.allSatisfy { $0.isLetter || $0 == "_" } ? String(error.prefix(40)) : "server_error"
        return OAuthRedirectError(
            error: safeError, errorCode: .badOAuthCallback,
            description: description.map { String($0.prefix(200)) } ?? "The provider reported an error: \(safeError).")
    }
    /// The state was already used (a replayed callback).
    static let stateUsed = OAuthRedirectError(
        error: "invalid_request", errorCode: .badOAuthState,
        description: "This sign-in link was already used. Please start the sign-in again.")
    /// The person took longer than the state's lifetime.
    static let stateExpired = OAuthRedirectError(
        error: "invalid_request", errorCode: .badOAuthState,
        description: "The sign-in took too long and expired. Please start the sign-in again.")
    /// The callback came without a code.
    static let missingCode = OAuthRedirectError(
        error: "invalid_request", errorCode: .badOAuthCallback,
        description: "The provider did not return an authorization code. Please start the sign-in again.")
    /// The provider's token endpoint failed, timed out or answered garbage.
    static func exchangeFailed(_ why: String) -> OAuthRedirectError {
        OAuthRedirectError(
            error: "server_error", errorCode: .unexpectedFailure,
            description: "Unable to exchange the code with the provider (\(why)). Please try again.")
    }
}
