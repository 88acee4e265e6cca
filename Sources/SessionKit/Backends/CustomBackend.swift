import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// A backend whose endpoints are URLs of their own, such as Netlify functions
/// (`/.netlify/functions/auth-refresh-token` taking `{"refresh_token": …}`).
///
/// Session and user bodies may be bare or wrapped in `{"success": true, "data": …}`.
/// A session body needs only `access_token` and `refresh_token` (with
/// `expires_in`, or a JWT whose `exp` says when it expires); without a `user`
/// the person is read from the JWT's claims. A user body needs only `id`.
/// Operations without a URL throw ``SessionError/unsupported``.
///
/// Declare the codes with which your backend ends a session in
/// `sessionEndingCodes`: any other refusal of a refresh keeps the session.
public struct CustomBackend: SessionBackend {
    public var refreshURL: URL
    public var meURL: URL
    public var signInURL: URL?
    public var signUpURL: URL?
    public var signOutURL: URL?
    public var updateProfileURL: URL?
    public var deleteAccountURL: URL?
    public var sessionsURL: URL?
    /// Headers sent with every request to these endpoints (an API key, say).
    public var headers: [String: String]
    /// The error codes with which this backend ends a session (default: GoTrue's and `SESSION_EXPIRED`).
    public var sessionEndingCodes: SessionEndingCodes

    public init(
        refreshURL: URL, meURL: URL, signInURL: URL? = nil, signUpURL: URL? = nil, signOutURL: URL? = nil,
        updateProfileURL: URL? = nil, deleteAccountURL: URL? = nil, sessionsURL: URL? = nil,
        headers: [String: String] = [:], sessionEndingCodes: SessionEndingCodes = .goTrue
    ) {
        self.refreshURL = refreshURL
        self.meURL = meURL
        self.signInURL = signInURL
        self.signUpURL = signUpURL
        self.signOutURL = signOutURL
        self.updateProfileURL = updateProfileURL
        self.deleteAccountURL = deleteAccountURL
        self.sessionsURL = sessionsURL
        self.headers = headers
        self.sessionEndingCodes = sessionEndingCodes
    }

    public var origins: [URL] {
        [refreshURL, meURL, signInURL, signUpURL, signOutURL, updateProfileURL, deleteAccountURL, sessionsURL]
            .compactMap { $0 }
    }

    public func request(for operation: BackendOperation) throws(SessionError) -> URLRequest {
        var request: URLRequest
        switch operation {
        case .signUp(let credentials):
            request = try json(signUpURL, "sign-up", body: BackendDecoding.encode(credentials))
        case .signIn(let credentials):
            request = try json(signInURL, "sign-in", body: BackendDecoding.encode(credentials))
        case .refresh(let refreshToken):
            request = try json(
                refreshURL, "refresh", body: BackendDecoding.encode(RefreshTokenRequest(refreshToken: refreshToken)))
        case .currentUser, .confirmSession:
            request = URLRequest(url: meURL)
        case .exchangeCode:
            throw SessionError.unsupported.with(message: "This backend does not support the OAuth code exchange.")
        case .signInWithIDToken:
            throw SessionError.unsupported.with(message: "This backend does not support signing in with an ID token.")
        case .sendEmailCode, .verifyEmailCode:
            throw SessionError.unsupported.with(message: "This backend does not support email sign-in codes.")
        case .sendPasswordReset:
            throw SessionError.unsupported.with(message: "This backend does not support password reset by email.")
        case .updatePassword:
            throw SessionError.unsupported.with(message: "This backend does not support changing the password.")
        case .reauthenticate:
            throw SessionError.unsupported.with(message: "This backend does not support mailed re-authentication codes.")
        case .updateUser:
            throw SessionError.unsupported.with(
                message: "This backend does not support updateUser; use updateProfile with its updateProfileURL.")
        case .updateProfile(let update):
            request = try json(updateProfileURL, "profile update", body: BackendDecoding.encode(update))
            request.httpMethod = "PATCH"
        case .deleteAccount(let proof):
            request = URLRequest(url: try require(deleteAccountURL, "account deletion"))
            request.httpMethod = "DELETE"
            if proof.carriesProof {
                request.httpBody = try BackendDecoding.encode(proof)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        case .listSessions:
            request = URLRequest(url: try require(sessionsURL, "session list"))
        case .revokeSession(let id):
            request = URLRequest(url: try require(sessionsURL, "session revocation").appendingPathComponent(id))
            request.httpMethod = "DELETE"
        case .signOut(let scope):
            var components = URLComponents(url: try require(signOutURL, "sign-out"), resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "scope", value: scope.rawValue)]
            guard let url = components?.url else { throw SessionError.unsupported }
            request = URLRequest(url: url)
            request.httpMethod = "POST"
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    private func json(_ url: URL?, _ what: String, body: Data) throws(SessionError) -> URLRequest {
        var request = URLRequest(url: try require(url, what))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return request
    }

    private func require(_ url: URL?, _ what: String) throws(SessionError) -> URL {
        guard let url else {
            throw SessionError.unsupported.with(message: "This backend has no \(what) endpoint configured.")
        }
        return url
    }
}
