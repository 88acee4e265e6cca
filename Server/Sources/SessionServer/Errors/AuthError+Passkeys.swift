/// Passkey refusals, in GoTrue's codes (docs/PASSKEYS.md, "Errors"). None
/// of them ends a session: a failed ceremony leaves the person as they were.
extension AuthError {
    /// Passkeys are off on this server (`--passkeys`).
    public static let passkeyDisabled = AuthError(
        .passkeyDisabled, "Passkeys are disabled on this server (auth-server --passkeys).")
    /// No passkey with this id belongs to the caller.
    public static let passkeyNotFound = AuthError(.passkeyNotFound, "Passkey not found")
    /// A `challenge_id` this server did not issue for this ceremony and person, or one already used.
    public static let webauthnChallengeNotFound = AuthError(
        .webauthnChallengeNotFound, "Challenge not found or already used: ask for new options and try again.",
        field: "challenge_id")
    /// A challenge older than its 5 minutes.
    public static let webauthnChallengeExpired = AuthError(
        .webauthnChallengeExpired, "Challenge has expired: ask for new options and try again.", field: "challenge_id")
    /// The credential or assertion failed a WebAuthn check; `reason` says which.
    public static func webauthnVerificationFailed(_ reason: String) -> AuthError {
        AuthError(.webauthnVerificationFailed, "Credential verification failed: \(reason)", field: "credential")
    }
    /// The authenticator's credential is registered already, to this account or another.
    public static let webauthnCredentialExists = AuthError(
        .webauthnCredentialExists, "This credential is already registered.", field: "credential")
    /// The account holds the most passkeys it may.
    public static func tooManyPasskeys(limit: Int) -> AuthError {
        AuthError(.tooManyPasskeys, "Maximum number of passkeys reached (\(limit)): remove one to add another.")
    }
}
