import SessionCore

/// What a sign-up came to.
public enum SignUpResult: Sendable, Hashable {
    /// The account exists and the person is signed in.
    case signedIn(Session)
    /// The account exists but the email must be confirmed before signing in.
    case confirmationRequired(SessionUser)
}
