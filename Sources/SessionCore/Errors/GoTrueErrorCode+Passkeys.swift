/// GoTrue's passkey error codes (`internal/api/apierrors/errorcode.go`; docs/PASSKEYS.md, "Errors").
extension GoTrueErrorCode {
    /// Passkeys are off on this server (404).
    public static let passkeyDisabled = Self("passkey_disabled")
    /// The ceremony's challenge is unknown, used already, or another person's.
    public static let webauthnChallengeNotFound = Self("webauthn_challenge_not_found")
    /// The ceremony took longer than the challenge lives (5 minutes).
    public static let webauthnChallengeExpired = Self("webauthn_challenge_expired")
    /// The authenticator's answer failed a WebAuthn check (the message says which).
    public static let webauthnVerificationFailed = Self("webauthn_verification_failed")
    /// The credential is registered already.
    public static let webauthnCredentialExists = Self("webauthn_credential_exists")
    /// The account holds the most passkeys it may (GoTrue's 10).
    public static let tooManyPasskeys = Self("too_many_passkeys")
}
