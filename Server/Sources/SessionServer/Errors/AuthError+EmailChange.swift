/// An email change's refusals, in GoTrue's words and codes (docs/ACCOUNTS.md,
/// "A confirmed email change (server)").
extension AuthError {
    /// `PUT /user {email}` (or the change's last confirmation) for an address
    /// another account holds: GoTrue's 422 `email_exists` (`DuplicateEmailMsg`,
    /// `internal/api/user.go`). Accounts are never merged; the session stays.
    public static let emailExists = AuthError(
        .userAlreadyExists, "A user with this email address has already been registered", goTrue: (422, "email_exists"))
    /// `PUT /user {password}` by an anonymous user with no address: GoTrue's
    /// 422 `validation_failed` (`internal/api/user.go`): a password alone could
    /// never be used to sign back in.
    public static let anonymousPasswordWithoutEmail = AuthError(
        .invalidRequest, "Updating password of an anonymous user without an email or phone is not allowed",
        field: "password", goTrue: (422, "validation_failed"))
}
