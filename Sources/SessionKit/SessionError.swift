import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// Everything that can go wrong in ``SessionClient``, as one evolvable type.
///
/// A struct with a private kind and static members (as Hummingbird's
/// `PersistError`), so new cases never break a caller's `switch`. Compare with
/// `==` against the static members: equality looks at the kind only.
///
/// ```swift
/// do {
///     _ = try await client.refresh()
/// } catch where error == .sessionExpired {
///     showSignIn(error.message)
/// }
/// ```
public struct SessionError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: String, Sendable, Hashable {
        case sessionExpired, authRequired, forbidden, invalidRequest, invalidCredentials, rateLimited
        case network, server, notSignedIn, persistenceFailed, decoding, notFound, conflict
        case unsupported, storeCorrupted, storeUnavailable, storeInaccessible, cancelled, requestFailed
        case refreshRefused, accountSuspended, signOutIncomplete, originNotAllowed, requestRejected
        case codeInvalid, reauthenticationRequired, emailNotConfirmed
        case secondFactorRequired, secondFactorCodeInvalid, proofKeyLost, proofKeyUnavailable
        case anonymousAccountWouldBeLost, identityAlreadyLinked, lastIdentity
        case oauthDenied, oauthFailed, oauthCallbackInvalid, oauthFlowUnknown, oauthFlowExpired, oauthVerifierMismatch
    }

    private let kind: Kind
    /// What happened and what to do, in words a person can act on.
    public let message: String
    /// The HTTP status the server answered, when there was an answer.
    public let status: Int?
    /// The gateway code (`error.code` of the envelope), when the server sent one.
    public let gatewayCode: GatewayErrorCode?
    /// The GoTrue or OAuth `error_code`, when the server sent one.
    public let goTrueErrorCode: GoTrueErrorCode?
    /// Seconds the server asked us to wait (`Retry-After`), when it did.
    public let retryAfter: TimeInterval?
    /// A short technical description of an underlying cause (never a token).
    public let underlying: String?

    private init(
        _ kind: Kind, _ message: String, status: Int? = nil, gatewayCode: GatewayErrorCode? = nil,
        goTrueErrorCode: GoTrueErrorCode? = nil, retryAfter: TimeInterval? = nil, underlying: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.status = status
        self.gatewayCode = gatewayCode
        self.goTrueErrorCode = goTrueErrorCode
        self.retryAfter = retryAfter
        self.underlying = underlying
    }

    /// The message every "your session is over" path shows, exactly once.
    public static let sessionExpiredMessage = "Your session has expired. Please sign in again."

    public static let sessionExpired = SessionError(.sessionExpired, sessionExpiredMessage)
    public static let authRequired = SessionError(.authRequired, "You need to sign in to continue.")
    public static let forbidden = SessionError(.forbidden, "You do not have access to this resource.")
    public static let invalidRequest = SessionError(.invalidRequest, "The request is not valid.")
    public static let invalidCredentials = SessionError(
        .invalidCredentials, "The email or password is not correct. Check them and try again.")
    public static let rateLimited = SessionError(.rateLimited, "Too many requests. Please wait a moment and try again.")
    public static let network = SessionError(
        .network, "The server cannot be reached. Check your connection; you are still signed in.")
    public static let server = SessionError(
        .server, "The server had a problem. You are still signed in; please try again shortly.")
    public static let notSignedIn = SessionError(.notSignedIn, "You are not signed in. Please sign in first.")
    public static let persistenceFailed = SessionError(
        .persistenceFailed, "The session could not be saved on this device. It is kept in memory; saving is retried.")
    public static let decoding = SessionError(.decoding, "The server's answer could not be read.")
    public static let notFound = SessionError(.notFound, "Not found.")
    public static let conflict = SessionError(.conflict, "The request conflicts with existing data.")
    public static let unsupported = SessionError(.unsupported, "This backend does not support that operation.")
    public static let storeCorrupted = SessionError(
        .storeCorrupted, "The saved session could not be read and was moved aside. Please sign in again.")
    public static let storeUnavailable = SessionError(
        .storeUnavailable, "The saved session cannot be read right now. Try again in a moment.")
    /// The saved session cannot be reached for a reason waiting cannot fix: the
    /// app lacks the keychain entitlement or access group, the item is damaged,
    /// or a newer version of the app wrote it. The state is `signedOut`, so the
    /// person can sign in; the stored item is left as it was. `underlying` names
    /// the cause and the fix for the developer.
    public static let storeInaccessible = SessionError(
        .storeInaccessible, "The saved session can't be opened on this device. Please sign in again.")
    public static let cancelled = SessionError(.cancelled, "The operation was cancelled.")
    public static let requestFailed = SessionError(.requestFailed, "The request failed.")

    /// The refresh was refused by something that is not the auth server's
    /// verdict on the session: a proxy's or gateway's 401/403 (often HTML, or
    /// `{"message":"Invalid API key"}`), an unknown 4xx, a misconfiguration.
    /// The session and its refresh token are kept and the refresh is retried
    /// with backoff; `status` and `underlying` say what answered.
    public static let refreshRefused = SessionError(
        .refreshRefused, "Your account can't be reached right now. You are still signed in; we'll keep trying.")
    /// The server ended the session because the account is suspended (GoTrue's `user_banned`).
    public static let accountSuspended = SessionError(
        .accountSuspended, "This account has been suspended. Contact support to restore access.")
    /// `signOut(scope: .global)` signed out this device, but the server did not
    /// confirm that the other devices were signed out.
    public static let signOutIncomplete = SessionError(
        .signOutIncomplete,
        "You are signed out on this device, but other devices could not be signed out. Sign in and try again when you are online.")
    /// ``SessionClient/send(_:)`` was asked to attach the access token for a
    /// host the configuration does not allow (``SessionClientConfiguration/authorizedOrigins``).
    public static let originNotAllowed = SessionError(
        .originNotAllowed, "This request goes to a server that is not allowed to receive your sign-in token.")

    /// Your own API answered 401 (or GoTrue's 403) to a token the auth server
    /// had just issued, without the contract's `SESSION_EXPIRED` or
    /// `AUTH_REQUIRED`. The person is still signed in: this is not the
    /// sign-in screen's cue (that is ``authRequired``). Usually the API
    /// verifies tokens with other keys, another audience or a stale JWKS;
    /// `status` and `underlying` say what answered.
    public static let requestRejected = SessionError(
        .requestRejected, "The server refused this request. You are still signed in; try again later.")

    /// The action (a password change, an account deletion) needs fresh proof
    /// that it is the person: ask for the current password, or for the code
    /// ``SessionClient`` had mailed, and call again with it. The session is
    /// kept; `goTrueErrorCode` says whether the proof sent was wrong
    /// (`current_password_mismatch`, `reauthentication_not_valid`).
    public static let reauthenticationRequired = SessionError(
        .reauthenticationRequired, "Please confirm it's you: enter your current password and try again.")

    /// The password is right but the account's email address is not confirmed
    /// yet (GoTrue's `email_not_confirmed`): the person must use the code or
    /// link mailed at sign-up (``SessionClient/verifyEmailCode(email:code:)``), then sign in.
    public static let emailNotConfirmed = SessionError(
        .emailNotConfirmed,
        "Confirm your email first: enter the code from the confirmation email we sent at sign-up (or open its link), then sign in.")

    /// A step-up: the request needs a session at AAL2 (a verified second
    /// factor) and this one is at AAL1 (GoTrue's `insufficient_aal`, the
    /// gateway's `MFA_REQUIRED`). The session is kept, nothing is refreshed:
    /// ask for the authenticator code (``SessionClient/mfa``,
    /// ``SessionMFA/challengeAndVerify(factorId:code:)``), then try again (docs/MFA.md).
    public static let secondFactorRequired = SessionError(
        .secondFactorRequired, "Enter the code from your authenticator app to continue. You are still signed in.")
    /// The authenticator code is wrong, was used already, or its challenge
    /// expired (`mfa_verification_failed`, `mfa_challenge_expired`): ask for
    /// the current code and verify again. The session is kept as it was.
    public static let secondFactorCodeInvalid = SessionError(
        .secondFactorCodeInvalid, "That code is not right or has expired. Enter the current code from your authenticator app.")

    /// A sign-out of an anonymous session was refused: this session is the
    /// only way back into the account (no email, no password, no linked
    /// provider), so ending it would lose the person's data for good. Nothing
    /// changed. Offer to keep the account (add an email, link a provider), or,
    /// when the person really means to throw it away, call
    /// ``SessionClient/signOut(scope:discardingAnonymousAccount:)`` with `true`
    /// (docs/ACCOUNTS.md, "Anonymous users (SDK)").
    public static let anonymousAccountWouldBeLost = SessionError(
        .anonymousAccountWouldBeLost,
        "Signing out would lose this guest account and its data for good. Add an email or link an account first, or confirm that you want to discard it.")

    /// The provider account is already linked to another user (GoTrue's
    /// `identity_already_exists`): accounts are never merged. Nothing changed;
    /// the person may sign in with that provider instead, or link another account.
    public static let identityAlreadyLinked = SessionError(
        .identityAlreadyLinked, "That account is already linked to another user. Sign in with it instead, or link a different one.")
    /// The identity is the account's only way to sign in, so it cannot be unlinked
    /// (GoTrue's `single_identity_not_deletable`). Nothing changed; link another first.
    public static let lastIdentity = SessionError(
        .lastIdentity, "This is the only way to sign in to the account, so it can't be removed. Link another one first.")
    /// The session is bound to a key this device no longer holds (DPoP,
    /// docs/DPOP.md): the app was restored onto a new device, or the Keychain
    /// was reset. It can never be refreshed here: the session ends (once, with
    /// this message) and the person signs in again. Other devices keep theirs.
    public static let proofKeyLost = SessionError(
        .proofKeyLost, "This device can no longer use your saved sign-in. Please sign in again.")
    /// The device key that signs requests cannot be used right now (the device
    /// is locked, the Secure Enclave is busy): transient, the session is kept
    /// and the request can be tried again shortly.
    public static let proofKeyUnavailable = SessionError(
        .proofKeyUnavailable, "Your sign-in can't be used until the device is unlocked. You are still signed in; try again in a moment.")

    // MARK: OAuth sign-in (nothing is stored and any existing session is kept)

    /// An emailed code or link that is wrong, expired or already used: ask for a new one.
    public static let codeInvalid = SessionError(
        .codeInvalid, "That code is wrong or has expired. Ask for a new code and use the one in the newest email.")
    /// The person declined at the provider.
    public static let oauthDenied = SessionError(
        .oauthDenied, "The sign-in was cancelled at the provider. You can try again whenever you like.")
    /// The provider or the server reported an error in the callback (see `goTrueErrorCode` and `underlying`).
    public static let oauthFailed = SessionError(.oauthFailed, "The sign-in with the provider failed. Please try again.")
    /// The callback URL lacks a field or has a malformed one; the message names it.
    public static let oauthCallbackInvalid = SessionError(
        .oauthCallbackInvalid, "The sign-in callback could not be read. Please start the sign-in again.")
    /// No sign-in was started here (no stored verifier), or the server knows no such code (already used).
    public static let oauthFlowUnknown = SessionError(
        .oauthFlowUnknown, "This sign-in link is not from a sign-in started here, or it was already used. Please start the sign-in again.")
    /// The sign-in took too long.
    public static let oauthFlowExpired = SessionError(
        .oauthFlowExpired, "The sign-in took too long and expired. Please start the sign-in again.")
    /// The server refused the PKCE verifier: the callback belongs to another sign-in attempt.
    public static let oauthVerifierMismatch = SessionError(
        .oauthVerifierMismatch, "This sign-in link belongs to another sign-in attempt. Please start the sign-in again.")

    /// A copy with details from the server or the cause attached.
    public func with(
        message: String? = nil, status: Int? = nil, gatewayCode: GatewayErrorCode? = nil, goTrueErrorCode: GoTrueErrorCode? = nil,
        retryAfter: TimeInterval? = nil, underlying: String? = nil
    ) -> SessionError {
        SessionError(
            kind, message ?? self.message, status: status ?? self.status, gatewayCode: gatewayCode ?? self.gatewayCode,
            goTrueErrorCode: goTrueErrorCode ?? self.goTrueErrorCode, retryAfter: retryAfter ?? self.retryAfter,
            underlying: underlying ?? self.underlying)
    }

    /// True for failures that keep the session and are worth retrying later.
    public var isTransient: Bool {
        switch kind {
        case .network, .server, .rateLimited, .decoding, .storeUnavailable, .refreshRefused, .proofKeyUnavailable: true
        default: false
        }
    }

    public var description: String {
        var text = "SessionError.\(kind.rawValue): \(message)"
        if let status { text += " [HTTP \(status)]" }
        if let gatewayCode { text += " [\(gatewayCode)]" }
        if let goTrueErrorCode { text += " [\(goTrueErrorCode)]" }
        if let underlying { text += " (\(underlying))" }
        return text
    }

    public static func == (lhs: SessionError, rhs: SessionError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
