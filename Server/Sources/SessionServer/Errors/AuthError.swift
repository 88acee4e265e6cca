import Foundation

/// Every way a request to the auth server can fail, in domain terms.
///
/// Routes and stores throw this; exactly two places turn it into HTTP: the
/// GoTrue mapping (``GoTrueError``) for `/auth/v1` and the gateway mapping
/// (``GatewayError``) for `/v1` and any app using ``AuthMiddleware``. A struct
/// with a private kind, so cases can be added without breaking callers.
public struct AuthError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Kind: String, Sendable, Hashable {
        case badJSON, invalidRequest, payloadTooLarge, unsupportedGrantType
        case invalidCredentials, userAlreadyExists, weakPassword, passwordCharacters
        case reauthenticationNeeded, currentPasswordMismatch, reauthenticationNotValid
        case refreshTokenNotFound, refreshTokenAlreadyUsed, sessionExpired, sessionNotFound
        case authRequired, tokenExpired, sessionRevoked
        case notFound, forbidden, rateLimited, flowStateNotFound, internalFailure, databaseUnavailable
        case flowStateExpired, badCodeVerifier, providerDisabled, badOAuthState, badIDToken
        case emailCodeInvalid, mailUnavailable, emailRateLimited, userBanned, notAdmin, emailNotConfirmed
        case insufficientAAL, mfaRefused
        // Passkeys (AuthError+Passkeys.swift).
        case passkeyDisabled, passkeyNotFound, webauthnChallengeNotFound, webauthnChallengeExpired
        case webauthnVerificationFailed, webauthnCredentialExists, tooManyPasskeys
        // Anonymous users (AuthError+Anonymous.swift).
        case anonymousProviderDisabled, anonymousNotAllowed
        // Identity linking (AuthError+Linking.swift).
        case linkingRefused
        // DPoP (AuthError+DPoP.swift).
        case dpopProofInvalid
    }

    let kind: Kind
    /// What went wrong, safe to show to the caller (never a token, never SQL).
    public let message: String
    /// The request field at fault, for validation errors.
    public let field: String?
    /// Seconds to wait, for rate limiting.
    public let retryAfter: Int?
    /// Whether the request carried credentials (decides `WWW-Authenticate`).
    public let credentialsSent: Bool
    /// GoTrue's status and error code where one kind has several (second factors, docs/MFA.md).
    let goTrue: (status: Int, code: String)?

    init(
        _ kind: Kind, _ message: String, field: String? = nil, retryAfter: Int? = nil, credentialsSent: Bool = false,
        goTrue: (status: Int, code: String)? = nil
    ) {
        self.kind = kind
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
        self.credentialsSent = credentialsSent
        self.goTrue = goTrue
    }

    public var description: String { "AuthError.\(kind.rawValue): \(message)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    // MARK: Bad input

    /// The body is not JSON.
    public static func badJSON(_ detail: String) -> AuthError {
        AuthError(.badJSON, "Could not parse request body as JSON: \(detail)")
    }
    /// A field is missing or has the wrong type or value; the message names it.
    public static func invalidRequest(field: String?, _ message: String) -> AuthError {
        AuthError(.invalidRequest, message, field: field)
    }
    /// The body is larger than the server accepts.
    public static let payloadTooLarge = AuthError(.payloadTooLarge, "The request body is larger than 64 KiB.")
    /// `grant_type` names nothing this server issues.
    public static let unsupportedGrantType = AuthError(.unsupportedGrantType, "unsupported_grant_type")

    // MARK: Credentials

    /// Unknown email or wrong password: deliberately the same answer.
    public static let invalidCredentials = AuthError(.invalidCredentials, "Invalid login credentials")
    /// The right password for an account whose address was never confirmed
    /// (GoTrue's `email_not_confirmed`): only a code or link from the mailbox opens it.
    public static let emailNotConfirmed = AuthError(
        .emailNotConfirmed,
        "Email not confirmed: open the confirmation email sent at sign-up and enter its code or follow its link, then sign in.")
    /// Sign-up with an email that already has an account.
    public static let userAlreadyExists = AuthError(.userAlreadyExists, "User already registered")
    /// A password shorter than the configured minimum.
    public static func weakPassword(minimumLength: Int) -> AuthError {
        AuthError(.weakPassword, "Password should be at least \(minimumLength) characters.", field: "password")
    }
    /// A password with a control character (NUL, a newline, an escape…): they
    /// are typed by no one, and NUL truncates the password in some bcrypt implementations.
    public static let passwordCharacters = AuthError(
        .passwordCharacters, "Password cannot contain control characters such as NUL, tab or newline.", field: "password")

    /// A change that locks others out (a new password, deleting the account)
    /// from a session that signed in too long ago, without the current password.
    public static func reauthenticationNeeded(withinSeconds window: Int) -> AuthError {
        let within = window >= 120 ? "\(window / 60) minutes" : "\(window) seconds"
        return AuthError(
            .reauthenticationNeeded,
            "Confirm it is you: send current_password, or the nonce /auth/v1/reauthenticate mails you, or sign in again and retry within \(within).",
            field: "current_password")
    }
    /// A `nonce` that is not the account's outstanding re-authentication code
    /// (wrong, expired, used, or none was asked for): GoTrue's message.
    public static let reauthenticationNotValid = AuthError(
        .reauthenticationNotValid, "Nonce has expired or is invalid. Ask for a new code (/auth/v1/reauthenticate) and use the newest email.",
        field: "nonce")
    /// `current_password` is not the account's password (or the account has none).
    public static let currentPasswordMismatch = AuthError(
        .currentPasswordMismatch, "current_password is not correct. Check it, or sign in again and retry.",
        field: "current_password")

    // MARK: Refresh tokens

    /// Unknown or revoked refresh token.
    public static let refreshTokenNotFound = AuthError(.refreshTokenNotFound, "Invalid Refresh Token: Refresh Token Not Found")
    /// A rotated-out token presented again outside the grace: the family is revoked.
    public static let refreshTokenAlreadyUsed = AuthError(.refreshTokenAlreadyUsed, "Invalid Refresh Token: Already Used")
    /// The session passed its inactivity or absolute lifetime.
    public static let sessionExpired = AuthError(.sessionExpired, "Invalid Refresh Token: Session Expired")
    /// The refresh token's session no longer exists.
    public static let sessionNotFound = AuthError(.sessionNotFound, "Invalid Refresh Token: Session Not Found")

    // MARK: Access tokens

    /// No usable credentials: missing, malformed or badly signed token.
    public static func authRequired(_ reason: String, credentialsSent: Bool) -> AuthError {
        AuthError(.authRequired, reason, credentialsSent: credentialsSent)
    }
    /// The access token expired beyond the leeway.
    public static let tokenExpired = AuthError(.tokenExpired, "token is expired", credentialsSent: true)
    /// The access token's session was signed out, revoked or deleted.
    public static let sessionRevoked = AuthError(
        .sessionRevoked, "Session from session_id claim in JWT does not exist", credentialsSent: true)

    // MARK: Other

    /// The resource does not exist, or belongs to someone else.
    public static let notFound = AuthError(.notFound, "Not found.")
    /// Signed in but not allowed.
    public static let forbidden = AuthError(.forbidden, "You do not have access to this resource.")
    /// Too many requests; retry after `seconds`.
    public static func rateLimited(retryAfter seconds: Int) -> AuthError {
        AuthError(.rateLimited, "Too many requests. Please wait \(seconds) seconds and try again.", retryAfter: seconds)
    }
    /// A PKCE code that matches no flow.
    public static let flowStateNotFound = AuthError(.flowStateNotFound, "invalid flow state, no valid flow state found")
    /// A PKCE code past its lifetime.
    public static let flowStateExpired = AuthError(
        .flowStateExpired, "invalid flow state, flow state has expired: please sign in again")
    /// A PKCE code presented with a verifier that does not match its challenge.
    public static let badCodeVerifier = AuthError(
        .badCodeVerifier, "code challenge does not match previously saved code verifier")
    /// An ID token (Sign in with Apple) that does not check out; the message says which check.
    public static func badIDToken(_ reason: String) -> AuthError {
        AuthError(.badIDToken, "Invalid ID token: \(reason).", field: "id_token")
    }
    /// `provider=` names no provider enabled on this server.
    public static func providerDisabled(_ name: String) -> AuthError {
        AuthError(.providerDisabled, "Unsupported provider: '\(name.prefix(40))' is not enabled on this server.", field: "provider")
    }
    /// The account is banned: no sign-in and no refresh until the ban ends.
    public static let userBanned = AuthError(.userBanned, "User is banned")
    /// `/admin` with a token that is not the service-role key.
    public static let notAdmin = AuthError(.notAdmin, "User not allowed: the admin API needs the service-role key.")
    /// An email code or link that is wrong, expired, used up or for no account:
    /// one answer for all, so a guess learns nothing.
    public static let emailCodeInvalid = AuthError(
        .emailCodeInvalid, "Token has expired or is invalid. Ask for a new code and use the newest email.")
    /// Email codes, links and resets need mail delivery, which is not configured.
    public static let mailUnavailable = AuthError(
        .mailUnavailable,
        "Email codes, links and password resets are not available: this server has no mail delivery configured (auth-server --smtp-url).")
    /// Another email to the same address, too soon after the last.
    /// Too many codes presented for one address, whichever code and purpose:
    /// the address's guessing budget is spent until the window ends.
    public static func emailCodeGuessesLimited(retryAfter seconds: Int) -> AuthError {
        let wait = seconds >= 120 ? "\(seconds / 60) minutes" : "\(seconds) seconds"
        return AuthError(
            .rateLimited,
            "Too many codes were tried for this address. Wait \(wait), then ask for a new code and type it carefully.",
            retryAfter: seconds)
    }
    /// A `current_password` check refused: the account's password budget (shared with sign-in) is spent.
    public static func passwordChecksLimited(retryAfter seconds: Int) -> AuthError {
        let wait = seconds >= 120 ? "\(seconds / 60) minutes" : "\(seconds) seconds"
        return AuthError(
            .rateLimited, "Too many passwords were tried for this account. Wait \(wait), then type your current password again.",
            retryAfter: seconds)
    }
    public static func emailRateLimited(retryAfter seconds: Int) -> AuthError {
        AuthError(
            .emailRateLimited, "For security purposes, you can only request this after \(seconds) seconds.",
            retryAfter: seconds)
    }
    /// A callback whose `state` this server never issued (nowhere safe to redirect to).
    public static let badOAuthState = AuthError(
        .badOAuthState, "OAuth callback with missing or invalid state parameter. Please start the sign-in again.")
    /// The database is unreachable or dropped the connection (restart, failover):
    /// transient, answered 503 with `Retry-After`, so clients keep the session and retry.
    public static let databaseUnavailable = AuthError(
        .databaseUnavailable, "The service is briefly unavailable. You are still signed in; please try again in a moment.",
        retryAfter: 1)
    /// The keys that verify access tokens cannot be fetched (a remote JWKS is
    /// down and nothing cached is fresh enough): transient, 503 with `Retry-After`.
    public static let verificationKeysUnavailable = AuthError(
        .databaseUnavailable, "The service cannot check sessions right now. You are still signed in; please try again in a moment.",
        retryAfter: 5)
    // MARK: Second factors (docs/MFA.md)

    /// The session is at `aal1` where the action needs a verified second factor (`aal2`):
    /// a step-up, never an end. GoTrue answers it 401 (email or password change),
    /// 403 (enrolling another factor) or 422 (removing a verified one).
    public static func insufficientAAL(status: Int, _ message: String) -> AuthError {
        AuthError(.insufficientAAL, message, goTrue: (status, "insufficient_aal"))
    }
    /// A second-factor request GoTrue refuses with its own code (422 unless said).
    static func mfaRefused(_ code: String, _ message: String, status: Int = 422) -> AuthError {
        AuthError(.mfaRefused, message, goTrue: (status, code))
    }
    /// A wrong, reused or malformed code: one answer for all, as GoTrue's.
    public static let mfaVerificationFailed = mfaRefused("mfa_verification_failed", "Invalid TOTP code entered")
    /// The factor is not this user's, or does not exist.
    public static let mfaFactorNotFound = mfaRefused("mfa_factor_not_found", "Factor not found", status: 404)
    /// The challenge is older than its five minutes, or was already answered.
    public static let mfaChallengeExpired = mfaRefused(
        "mfa_challenge_expired", "MFA challenge has expired, verify against another challenge or create a new challenge.")

    /// A server fault; the message is generic on purpose.
    public static let internalFailure = AuthError(.internalFailure, "Something went wrong on our side. Please try again.")
}
