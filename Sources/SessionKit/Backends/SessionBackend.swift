import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// Which sessions a sign-out ends (GoTrue's `scope`).
public enum SignOutScope: String, Sendable, Hashable, CaseIterable {
    /// This session only.
    case local
    /// Every session of the user.
    case global
    /// Every session of the user except this one (this device stays signed in).
    case others
}

/// One thing ``SessionClient`` asks a backend to do.
public enum BackendOperation: Sendable, Hashable {
    case signUp(PasswordCredentials)
    case signIn(PasswordCredentials)
    case refresh(refreshToken: String)
    case currentUser
    case updateProfile(ProfileUpdate)
    /// Changes the user's email, password or metadata (`PUT /auth/v1/user`).
    case updateUser(UserAttributes)
    /// Deletes the account, with the current password or a mailed nonce when the server wants fresh proof.
    case deleteAccount(AccountDeletion)
    case listSessions
    case revokeSession(id: String)
    case signOut(SignOutScope)
    /// Exchanges an OAuth callback's one-time code and the PKCE verifier for a session.
    case exchangeCode(PKCETokenRequest)
    /// Exchanges a provider's ID token (Sign in with Apple) for a session.
    case signInWithIDToken(IDTokenRequest)
    /// Confirms a new session with the server before it is reported signed in.
    case confirmSession
    /// Mails a sign-in code (and link) to an address (`POST /otp`).
    case sendEmailCode(EmailCodeRequest)
    /// Redeems an emailed code (or a link's token) for a session (`POST /verify`).
    case verifyEmailCode(VerifyRequest)
    /// Mails a password-reset code (and link) to an address (`POST /recover`).
    case sendPasswordReset(PasswordResetRequest)
    /// Sets a new password for the signed-in user (`PUT /user`).
    case updatePassword(PasswordUpdate)
    /// Mails the signed-in user a nonce for a change that needs fresh proof (`GET /reauthenticate`).
    case reauthenticate

    /// True when the request needs the access token (`Authorization: Bearer`).
    public var requiresAuthorization: Bool {
        switch self {
        case .signUp, .signIn, .refresh, .exchangeCode, .signInWithIDToken, .sendEmailCode, .verifyEmailCode,
            .sendPasswordReset:
            false
        default: true
        }
    }
}

/// The server a ``SessionClient`` talks to: where each operation goes and how answers read.
///
/// ``GoTrueBackend`` speaks Supabase Auth (and `auth-server`); ``CustomBackend``
/// covers servers with their own refresh and me URLs. Implement it for anything else.
/// ``SessionClient`` attaches `Authorization` itself and classifies every
/// error answer (both GoTrue shapes, the gateway envelope, OAuth's shape).
public protocol SessionBackend: Sendable {
    /// Builds the request for `operation`, without `Authorization`.
    ///
    /// - Throws: ``SessionError/unsupported`` when this backend cannot do it.
    func request(for operation: BackendOperation) throws(SessionError) -> URLRequest

    /// Adds what this server wants on every request (an `apikey`, say),
    /// including app requests sent through ``SessionClient/send(_:)``.
    func prepare(_ request: inout URLRequest)

    /// Reads a session body (sign-in, sign-up, refresh).
    func decodeSession(_ data: Data) throws(SessionError) -> TokenResponse

    /// Reads a user body.
    func decodeUser(_ data: Data) throws(SessionError) -> SessionUser

    /// The URL that starts an OAuth sign-in in a browser.
    ///
    /// - Throws: ``SessionError/unsupported`` when this backend has no OAuth sign-in.
    func authorizationURL(for request: OAuthAuthorizationRequest) throws(SessionError) -> URL

    /// The error codes with which this backend says a session is over; every
    /// other refusal of a refresh keeps the session (default ``SessionEndingCodes/goTrue``).
    var sessionEndingCodes: SessionEndingCodes { get }

    /// The origins (scheme, host, port) this backend's endpoints live on.
    ///
    /// The client learns the server's clock only from their answers, and by
    /// default attaches the access token only to requests for them. The
    /// default reads the refresh and current-user endpoints' URLs.
    ///
    /// Read once, when the ``SessionClient`` is made (docs/BENCHMARKS.md,
    /// Round 3, item 1: parsing it on every `send` was part of the request's
    /// cost), so a backend's origins must not change over its life.
    var origins: [URL] { get }
}

extension SessionBackend {
    public func prepare(_ request: inout URLRequest) {}

    public var sessionEndingCodes: SessionEndingCodes { .goTrue }

    public var origins: [URL] {
        var found: [URL] = []
        for operation in [BackendOperation.refresh(refreshToken: ""), .currentUser] {
            do {
                if let url = try request(for: operation).url { found.append(url) }
            } catch {
                // A backend without that endpoint names no origin through it.
                continue
            }
        }
        return found
    }

    public func authorizationURL(for request: OAuthAuthorizationRequest) throws(SessionError) -> URL {
        throw SessionError.unsupported.with(message: "This backend does not support OAuth sign-in.")
    }

    /// Accepts the bare body or the gateway's `{"success": true, "data": …}`.
    public func decodeSession(_ data: Data) throws(SessionError) -> TokenResponse {
        try BackendDecoding.decode(TokenResponse.self, from: data, what: "session")
    }

    /// Accepts the bare body or the gateway's `{"success": true, "data": …}`.
    public func decodeUser(_ data: Data) throws(SessionError) -> SessionUser {
        try BackendDecoding.decode(SessionUser.self, from: data, what: "user")
    }
}

extension SessionBackend where Self == GoTrueBackend {
    /// Supabase Auth or `auth-server` at `url` (the project or server root).
    public static func goTrue(url: URL, apiKey: String? = nil) -> GoTrueBackend {
        GoTrueBackend(url: url, apiKey: apiKey)
    }
}

extension SessionBackend where Self == CustomBackend {
    /// A server with its own endpoints: the same URLs ``CustomBackend/init(refreshURL:meURL:signInURL:signUpURL:signOutURL:updateProfileURL:deleteAccountURL:sessionsURL:headers:sessionEndingCodes:)`` takes.
    ///
    /// Only `refreshURL` and `meURL` are required; an operation whose URL is
    /// `nil` answers ``SessionError/unsupported``.
    public static func custom(
        refreshURL: URL, meURL: URL, signInURL: URL? = nil, signUpURL: URL? = nil, signOutURL: URL? = nil,
        updateProfileURL: URL? = nil, deleteAccountURL: URL? = nil, sessionsURL: URL? = nil,
        headers: [String: String] = [:], sessionEndingCodes: SessionEndingCodes = .goTrue
    ) -> CustomBackend {
        CustomBackend(
            refreshURL: refreshURL, meURL: meURL, signInURL: signInURL, signUpURL: signUpURL, signOutURL: signOutURL,
            updateProfileURL: updateProfileURL, deleteAccountURL: deleteAccountURL, sessionsURL: sessionsURL,
            headers: headers, sessionEndingCodes: sessionEndingCodes)
    }
}
