import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import Logging

/// An in-memory Supabase-style server, as an ``HTTPTransport``: plug it into a
/// ``SessionClientConfiguration`` and test against SessionKit without a server.
///
/// It emulates GoTrue (sign-up, password and refresh grants with rotation,
/// reuse grace and reuse detection, `/auth/v1/user`, logout, the PKCE grant
/// with ``approveOAuth(_:email:)`` / ``denyOAuth(_:)``) and the gateway
/// (`/v1/auth/me`, `/v1/sessions`, `/v1/activities`), issues real-looking JWTs
/// with `exp`, counts requests per endpoint and injects faults.
///
/// ```swift
/// let clock = ManualClock()
/// let fake = FakeAuthBackend(clock: clock)
/// await fake.createUser(email: "ada@example.com", password: "secret-123")
/// let client = SessionClient(configuration: fake.clientConfiguration(clock: clock))
/// try await client.signIn(email: "ada@example.com", password: "secret-123")
/// #expect(await fake.count(.passwordGrant) == 1)
/// ```
public actor FakeAuthBackend: HTTPTransport {
    struct User {
        var record: SessionUser
        var password: String
    }

    struct RefreshRecord {
        let sessionID: String
        var successor: String?
        var rotatedAt: Date?
    }

    struct Family {
        let id: String
        let userID: String
        let createdAt: Date
        var lastRefreshedAt: Date?
        var revoked = false
    }

    /// The server root the fake answers for.
    public nonisolated let baseURL: URL
    let clock: any SessionClock
    /// Access token lifetime in seconds.
    public private(set) var accessTokenLifetime: TimeInterval
    /// Reuse grace in seconds: a rotated-out token presented within it returns its successor.
    public private(set) var reuseGrace: TimeInterval
    /// Server clock minus the test clock, in seconds (for skew tests).
    public private(set) var clockSkew: TimeInterval = 0
    /// Whether responses carry a `Date` header.
    public private(set) var sendsDateHeader = true

    var users: [String: User] = [:]
    var families: [String: Family] = [:]
    var refreshTokens: [String: RefreshRecord] = [:]
    var accessTokens: [String: String] = [:]
    var successorAccessTokens: [String: String] = [:]
    var faults: [FakeEndpoint: [FakeFault]] = [:]
    var counts: [FakeEndpoint: Int] = [:]
    var issued = 0
    /// One-time OAuth codes: code → (challenge, user email key).
    var oauthCodes: [String: (challenge: String, userKey: String)] = [:]
    /// ID tokens handed out by ``appleIDToken(sub:email:nonce:)``, and the user each Apple `sub` became.
    var appleTokens: [String: (sub: String, email: String?, nonceHash: String)] = [:]
    var appleUsers: [String: String] = [:]
    /// Emailed codes: lowercased email → the newest code sent to it.
    var emailCodes: [String: EmailCode] = [:]
    /// Re-authentication nonces: lowercased email → the newest one sent.
    var reauthenticationNonces: [String: String] = [:]
    var reauthenticationRequired = false
    /// Second factors and the sessions they raised (FakeAuthBackend+MFA.swift).
    var mfa = FakeFactors()
    /// Anonymous users, email changes and linked identities (FakeAuthBackend+Anonymous.swift).
    var accounts = FakeAccounts()

    public init(
        clock: any SessionClock,
        baseURL: URL = URL(string: "https://fake.sessionkit.test")!,
        accessTokenLifetime: TimeInterval = SessionDefaults.accessTokenLifetime,
        reuseGrace: TimeInterval = SessionDefaults.refreshReuseGrace
    ) {
        self.clock = clock
        self.baseURL = baseURL
        self.accessTokenLifetime = accessTokenLifetime
        self.reuseGrace = reuseGrace
    }

    /// The GoTrue backend pointing at this fake.
    public nonisolated var backend: GoTrueBackend { GoTrueBackend(url: baseURL, apiKey: "fake-anon-key") }

    /// A client configuration wired to this fake: its transport, the given clock
    /// and store, deterministic jitter (`0.5`).
    public nonisolated func clientConfiguration(
        clock: any SessionClock,
        store: some SessionStore = InMemorySessionStore(),
        launchValidation: SessionClientConfiguration.LaunchValidation = .background,
        automaticRefresh: Bool = true,
        logger: Logger? = nil
    ) -> SessionClientConfiguration {
        var configuration = SessionClientConfiguration(
            backend: backend, store: store, clock: clock, transport: self, launchValidation: launchValidation,
            jitter: .fixed(0.5), automaticRefresh: automaticRefresh)
        if let logger { configuration.logger = logger }
        return configuration
    }

    // MARK: - Test controls

    /// Requests served (or faulted) for `endpoint` so far.
    public func count(_ endpoint: FakeEndpoint) -> Int { counts[endpoint, default: 0] }

    /// Makes the next `times` requests to `endpoint` fail with `fault`.
    public func inject(_ fault: FakeFault, on endpoint: FakeEndpoint, times: Int = 1) {
        faults[endpoint, default: []].append(contentsOf: Array(repeating: fault, count: max(0, times)))
    }

    /// Removes every pending fault.
    public func clearFaults() { faults = [:] }

    public func setClockSkew(_ seconds: TimeInterval) { clockSkew = seconds }
    public func setSendsDateHeader(_ value: Bool) { sendsDateHeader = value }
    public func setAccessTokenLifetime(_ seconds: TimeInterval) { accessTokenLifetime = seconds }

    /// The server's time.
    public var serverNow: Date { clock.now.addingTimeInterval(clockSkew) }

    /// Creates a user directly.
    @discardableResult
    public func createUser(email: String, password: String, metadata: [String: JSONValue] = [:]) -> SessionUser {
        let now = serverNow
        let user = SessionUser(
            id: UUID().uuidString.lowercased(), email: email, emailConfirmedAt: now, userMetadata: metadata,
            createdAt: now, updatedAt: now)
        users[email.lowercased()] = User(record: user, password: password)
        return user
    }

    /// True when a user with this email exists.
    public func hasUser(email: String) -> Bool { users[email.lowercased()] != nil }

    /// Issues a session for an existing user without a request (to seed a store).
    public func issueSession(email: String) -> TokenResponse? {
        guard let user = users[email.lowercased()] else { return nil }
        return startFamily(for: user.record)
    }

    /// Revokes the family `refreshToken` belongs to (as reuse detection or an admin would).
    public func revokeFamily(ofRefreshToken refreshToken: String) {
        guard let sessionID = refreshTokens[refreshToken]?.sessionID else { return }
        families[sessionID]?.revoked = true
    }

    /// Revokes every session of the user.
    public func revokeAllSessions(email: String) {
        guard let id = users[email.lowercased()]?.record.id else { return }
        for (key, family) in families where family.userID == id { families[key]?.revoked = true }
    }

    /// True while the family of `refreshToken` is alive.
    public func isFamilyActive(refreshToken: String) -> Bool {
        guard let sessionID = refreshTokens[refreshToken]?.sessionID, let family = families[sessionID] else { return false }
        return !family.revoked
    }

    // MARK: - Transport

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let endpoint = Self.endpoint(of: request)
        counts[endpoint, default: 0] += 1
        var after: FakeFault?
        if var pending = faults[endpoint], !pending.isEmpty {
            let fault = pending.removeFirst()
            faults[endpoint] = pending
            switch fault {
            case .drop(let code):
                throw URLError(code)
            case .status(let status, let body, let headers):
                return try respond(request, status: status, body: body, headers: headers)
            case .goTrueError(let status, let code, let message):
                return try goTrueError(request, status: status, code: code, message: message)
            case .gatewayError(let status, let code, let message, let headers):
                return try gatewayError(request, status: status, code: code, message: message, headers: headers)
            case .hold(let gate):
                await gate.pass()
            case .commitThenDrop, .body, .holdAnswer:
                after = fault
            }
        }
        let answer = try handle(request, endpoint: endpoint)
        switch after {
        case .commitThenDrop(let code): throw URLError(code)
        case .body(let body, let status): return try respond(request, status: status, body: body)
        case .holdAnswer(let gate):
            await gate.pass()
            return answer
        default: return answer
        }
    }

    /// Which endpoint `request` addresses.
    public static func endpoint(of request: URLRequest) -> FakeEndpoint {
        guard let url = request.url else { return .unknown }
        let method = request.httpMethod ?? "GET"
        let path = url.path
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let grant = query.first { $0.name == "grant_type" }?.value
        switch (method, path) {
        case ("POST", "/auth/v1/signup"): return .signUp
        case ("POST", "/auth/v1/token"):
            switch grant {
            case "refresh_token": return .refresh
            case "password": return .passwordGrant
            case "pkce": return .pkceGrant
            case "id_token": return .idTokenGrant
            default: return .unknown
            }
        case ("POST", "/auth/v1/otp"): return .otp
        case ("POST", "/auth/v1/recover"): return .recover
        case ("POST", "/auth/v1/verify"): return .verify
        case ("GET", "/auth/v1/user"): return .user
        case ("PUT", "/auth/v1/user"): return .updateUser
        case ("POST", "/auth/v1/logout"): return .logout
        case ("GET", "/auth/v1/reauthenticate"), ("POST", "/auth/v1/reauthenticate"): return .reauthenticate
        case ("GET", "/v1/auth/me"): return .me
        case ("PATCH", "/v1/auth/me"): return .updateMe
        case ("DELETE", "/v1/auth/me"): return .deleteMe
        case ("GET", "/v1/sessions"): return .sessions
        case ("GET", "/v1/activities"): return .activities
        case ("POST", "/.netlify/functions/auth-refresh-token"): return .customRefresh
        case ("DELETE", _) where path.hasPrefix("/v1/sessions/"): return .revokeSession
        default: return .unknown
        }
    }

    private func handle(_ request: URLRequest, endpoint: FakeEndpoint) throws -> (Data, HTTPURLResponse) {
        switch endpoint {
        case .signUp: return try handleSignUp(request)
        case .passwordGrant: return try handlePasswordGrant(request)
        case .pkceGrant: return try handleLinkExchange(request) ?? handlePKCEGrant(request)
        case .idTokenGrant: return try handleIDTokenLink(request) ?? handleIDTokenGrant(request)
        case .otp: return try handleSendCode(request, recovery: false)
        case .recover: return try handleSendCode(request, recovery: true)
        case .verify: return try handleVerify(request)
        case .refresh, .customRefresh: return try handleRefresh(request)
        case .user: return try handleUser(request)
        case .updateUser: return try handleUpdateUser(request)
        case .logout: return try handleLogout(request)
        case .reauthenticate: return try handleReauthenticate(request)
        case .me, .updateMe, .deleteMe, .sessions, .revokeSession, .activities: return try handleGateway(request, endpoint)
        case .unknown:
            if let answer = try handleFactors(request) { return answer }
            if let answer = try handleAccountRoutes(request) { return answer }
            return try gatewayError(request, status: 404, code: .notFound, message: nil)
        }
    }
}
