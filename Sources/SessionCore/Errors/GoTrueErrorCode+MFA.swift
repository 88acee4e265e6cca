/// GoTrue's second-factor codes (`internal/api/errorcodes.go`); none of them ends a session (docs/MFA.md).
extension GoTrueErrorCode {
    /// The session is at AAL1 where AAL2 is needed: a step-up, never a sign-out.
    public static let insufficientAAL = Self("insufficient_aal")
    /// The TOTP code is wrong, or was used already in its window.
    public static let mfaVerificationFailed = Self("mfa_verification_failed")
    /// The challenge is older than its lifetime, or was answered already.
    public static let mfaChallengeExpired = Self("mfa_challenge_expired")
    /// No such factor for this user (or the challenge is another factor's).
    public static let mfaFactorNotFound = Self("mfa_factor_not_found")
}
