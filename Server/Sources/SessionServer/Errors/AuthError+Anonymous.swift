/// Anonymous sign-in's refusals, in GoTrue's words and codes (docs/ACCOUNTS.md,
/// "Anonymous users (server)").
extension AuthError {
    /// `POST /signup` with neither email nor phone while anonymous sign-ins are
    /// off (`--anonymous-sign-ins`): GoTrue's 422 `anonymous_provider_disabled`.
    public static let anonymousProviderDisabled = AuthError(.anonymousProviderDisabled, "Anonymous sign-ins are disabled")
    /// An anonymous user asking for something only a permanent account may do
    /// (a second factor, a passkey): GoTrue's `requireNotAnonymous`, 403 `no_authorization`.
    /// The session stays; the person adds an email or provider first.
    public static let anonymousNotAllowed = AuthError(
        .anonymousNotAllowed, "Anonymous user not allowed to perform these actions")
}
