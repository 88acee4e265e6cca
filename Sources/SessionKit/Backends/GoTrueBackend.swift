import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// Supabase Auth (GoTrue) paths, as a hosted Supabase project and `auth-server` serve them.
///
/// Sign-up, sign-in, refresh, the user (`updateUser` too) and logout go to
/// `/auth/v1/...` with the `apikey` header; the profile shortcut, account
/// deletion and the device list go to `auth-server`'s gateway (`/v1/auth/me`,
/// `/v1/sessions`), which a hosted Supabase project does not have: there
/// ``SessionClient`` answers them with ``SessionError/unsupported`` and a
/// message naming what to use instead.
public struct GoTrueBackend: SessionBackend {
    /// The server root (for Supabase, the project URL).
    public var url: URL
    /// Supabase's anon key, sent as `apikey`; `nil` for servers that need none.
    public var apiKey: String?

    public init(url: URL, apiKey: String? = nil) {
        self.url = url
        self.apiKey = apiKey
    }

    public func request(for operation: BackendOperation) throws(SessionError) -> URLRequest {
        var request: URLRequest
        switch operation {
        case .signUp(let credentials):
            request = try post("auth/v1/signup", body: BackendDecoding.encode(credentials))
        case .signIn(let credentials):
            let body = PasswordCredentials(email: credentials.email, password: credentials.password)
            request = try post("auth/v1/token", query: ["grant_type": "password"], body: BackendDecoding.encode(body))
        case .refresh(let refreshToken):
            request = try post(
                "auth/v1/token", query: ["grant_type": "refresh_token"],
                body: BackendDecoding.encode(RefreshTokenRequest(refreshToken: refreshToken)))
        case .currentUser:
            request = URLRequest(url: endpoint("auth/v1/user"))
        case .exchangeCode(let body):
            request = try post("auth/v1/token", query: ["grant_type": "pkce"], body: BackendDecoding.encode(body))
        case .signInWithIDToken(let body):
            request = try post("auth/v1/token", query: ["grant_type": "id_token"], body: BackendDecoding.encode(body))
        case .sendEmailCode(let body):
            request = try post("auth/v1/otp", body: BackendDecoding.encode(body))
        case .verifyEmailCode(let body):
            request = try post("auth/v1/verify", body: BackendDecoding.encode(body))
        case .sendPasswordReset(let body):
            request = try post("auth/v1/recover", body: BackendDecoding.encode(body))
        case .updatePassword(let body):
            request = URLRequest(url: endpoint("auth/v1/user"))
            request.httpMethod = "PUT"
            request.httpBody = try BackendDecoding.encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        case .reauthenticate:
            // GET, as GoTrue routes it and its clients (supabase-js, supabase_auth) call it.
            request = URLRequest(url: endpoint("auth/v1/reauthenticate"))
        case .confirmSession:
            // The gateway first; a hosted Supabase project has none, and
            // SessionClient falls back to `.currentUser` on its 404.
            request = URLRequest(url: endpoint("v1/auth/me"))
        case .updateProfile(let update):
            request = URLRequest(url: endpoint("v1/auth/me"))
            request.httpMethod = "PATCH"
            request.httpBody = try BackendDecoding.encode(update)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        case .updateUser(let attributes):
            request = URLRequest(url: endpoint("auth/v1/user"))
            request.httpMethod = "PUT"
            request.httpBody = try BackendDecoding.encode(attributes)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        case .deleteAccount(let proof):
            request = URLRequest(url: endpoint("v1/auth/me"))
            request.httpMethod = "DELETE"
            if proof.carriesProof {
                request.httpBody = try BackendDecoding.encode(proof)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        case .listSessions:
            request = URLRequest(url: endpoint("v1/sessions"))
        case .revokeSession(let id):
            guard let encoded = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else {
                throw SessionError.invalidRequest.with(message: "The session id is not valid.")
            }
            request = URLRequest(url: endpoint("v1/sessions/\(encoded)"))
            request.httpMethod = "DELETE"
        case .signOut(let scope):
            request = URLRequest(url: endpoint("auth/v1/logout", query: ["scope": scope.rawValue]))
            request.httpMethod = "POST"
        }
        prepare(&request)
        return request
    }

    /// `/auth/v1/authorize?provider=…&redirect_to=…&code_challenge=…&code_challenge_method=s256[&scopes=…]`.
    public func authorizationURL(for request: OAuthAuthorizationRequest) throws(SessionError) -> URL {
        var query = [
            "provider": request.provider, "redirect_to": request.redirectTo.absoluteString,
            "code_challenge": request.codeChallenge, "code_challenge_method": "s256",
        ]
        if !request.scopes.isEmpty { query["scopes"] = request.scopes.joined(separator: " ") }
        return endpoint("auth/v1/authorize", query: query)
    }

    public var origins: [URL] { [url] }

    public func prepare(_ request: inout URLRequest) {
        // The anon key goes only to this server, never to third parties the app calls.
        guard let apiKey, request.url?.host == url.host, request.value(forHTTPHeaderField: "apikey") == nil else {
            return
        }
        request.setValue(apiKey, forHTTPHeaderField: "apikey")
    }

    private func post(_ path: String, query: [String: String] = [:], body: Data) -> URLRequest {
        var request = URLRequest(url: endpoint(path, query: query))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return request
    }

    private func endpoint(_ path: String, query: [String: String] = [:]) -> URL {
        let base = url.appendingPathComponent(path)
        guard !query.isEmpty, var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
            return base
        }
        // Strict encoding: `queryItems` leaves `&`, `=` and `+` alone, which would split a `redirect_to` with a query.
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        components.percentEncodedQuery = query.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        return components.url ?? base
    }
}
