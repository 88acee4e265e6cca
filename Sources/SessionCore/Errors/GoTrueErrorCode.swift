/// A GoTrue (Supabase Auth) `error_code`.
///
/// An open set, as GoTrue adds codes over time; the ones SessionKit acts on
/// are named here.
public struct GoTrueErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    // Codable comes from the standard library's `RawRepresentable` conformance:
    // a bare JSON string, any value accepted.

    public var description: String { rawValue }

    public static let refreshTokenNotFound = Self("refresh_token_not_found")
    public static let refreshTokenAlreadyUsed = Self("refresh_token_already_used")
    public static let sessionNotFound = Self("session_not_found")
    public static let sessionExpired = Self("session_expired")
    public static let invalidCredentials = Self("invalid_credentials")
    /// The right password for an account whose address is not confirmed yet:
    /// the person must use the code or link mailed at sign-up first.
    public static let emailNotConfirmed = Self("email_not_confirmed")
    public static let badJWT = Self("bad_jwt")
    public static let noAuthorization = Self("no_authorization")
    public static let badJSON = Self("bad_json")
    public static let validationFailed = Self("validation_failed")
    public static let userAlreadyExists = Self("user_already_exists")
    public static let emailExists = Self("email_exists")
    public static let weakPassword = Self("weak_password")
    public static let userNotFound = Self("user_not_found")
    /// The user is banned (GoTrue answers it on refresh and sign-in).
    public static let userBanned = Self("user_banned")
    public static let overRequestRateLimit = Self("over_request_rate_limit")
    public static let unsupportedGrantType = Self("unsupported_grant_type")
    public static let flowStateNotFound = Self("flow_state_not_found")
    public static let flowStateExpired = Self("flow_state_expired")
    public static let badCodeVerifier = Self("bad_code_verifier")
    public static let badOAuthState = Self("bad_oauth_state")
    public static let badOAuthCallback = Self("bad_oauth_callback")
    public static let providerDisabled = Self("provider_disabled")
    /// An email code or link that is wrong, expired or already used (GoTrue gives one answer for all).
    public static let otpExpired = Self("otp_expired")
    /// Email codes, links and password resets are not offered (no mail delivery configured).
    public static let emailProviderDisabled = Self("email_provider_disabled")
    /// Too many emails asked for one address; wait before asking again.
    public static let overEmailSendRateLimit = Self("over_email_send_rate_limit")
    public static let requestTimeout = Self("request_timeout")
    public static let unexpectedFailure = Self("unexpected_failure")
    /// The action needs fresh proof (`current_password`, or a `nonce` from `/reauthenticate`).
    public static let reauthenticationNeeded = Self("reauthentication_needed")
    /// The `nonce` from `/reauthenticate` is wrong or expired.
    public static let reauthenticationNotValid = Self("reauthentication_not_valid")
    /// The `current_password` sent is not the account's password.
    public static let currentPasswordMismatch = Self("current_password_mismatch")
    /// OAuth 2.0's generic refusal, sent by older GoTrue and custom backends.
    public static let invalidGrant = Self("invalid_grant")

    /// True for GoTrue's codes that mean the session itself is over.
    ///
    /// OAuth's generic `invalid_grant` is not one of them: proxies and
    /// unrelated services answer it too, so a custom backend that means it
    /// declares it (see `SessionEndingCodes` in SessionKit).
    public var endsSession: Bool {
        switch self {
        case .refreshTokenNotFound, .sessionNotFound, .sessionExpired, .userNotFound, .userBanned: true
        default: false
        }
    }
}
