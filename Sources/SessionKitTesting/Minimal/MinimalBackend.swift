import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore
import SessionKit

/// An in-memory custom backend that speaks the minimal dialect many apps
/// hand-roll (a Netlify or Express function in front of their database), as
/// an ``HTTPTransport``:
///
/// - `POST /auth/login` `{email, password}` and `POST /auth/refresh`
///   `{refresh_token}` answer `{"access_token", "refresh_token", "expires_in"}`
///   and nothing else: no `token_type`, no `expires_at`, no `user` (the JWT's
///   claims name the person);
/// - `GET /auth/me` answers `{"id", "email"}`: no `created_at`, no `updated_at`;
/// - rotation has **no grace window**: a rotated-out refresh token is refused
///   at once with the backend's own end code;
/// - no `Date` header.
///
/// ``Shape/wrapped`` puts every body in `{"success": true, "data": …}` and
/// every error in `{"success": false, "error": {"code", "message"}}`;
/// ``Shape/bare`` answers bodies as they are and errors as
/// `{"error": code, "message": …}`. Use ``clientConfiguration(clock:store:automaticRefresh:logger:)``
/// for a client whose ``CustomBackend`` declares the end code.
public actor MinimalBackend: HTTPTransport {
    /// How bodies are framed.
    public enum Shape: String, Sendable, CaseIterable {
        case bare, wrapped
    }

    /// The endpoints, for counting and fault injection.
    public enum Endpoint: String, Sendable, Hashable {
        case login, refresh, me, unknown
    }

    public nonisolated let baseURL: URL
    public nonisolated let shape: Shape
    /// The code this backend answers for a refresh token it no longer honours.
    public nonisolated let endCode: String
    let clock: any SessionClock
    public private(set) var accessTokenLifetime: Int

    var passwords: [String: String] = [:]
    var userIDs: [String: String] = [:]
    /// Refresh token → (user email, session id) for live tokens only.
    var live: [String: (email: String, sessionID: String)] = [:]
    var accessTokens: Set<String> = []
    var counts: [Endpoint: Int] = [:]
    var faults: [Endpoint: [FakeFault]] = [:]

    public init(
        clock: any SessionClock, shape: Shape, baseURL: URL = URL(string: "https://minimal.sessionkit.test")!,
        endCode: String = "SESSION_EXPIRED", accessTokenLifetime: Int = 3600
    ) {
        self.clock = clock
        self.shape = shape
        self.baseURL = baseURL
        self.endCode = endCode
        self.accessTokenLifetime = accessTokenLifetime
    }

    /// The ``CustomBackend`` an app would configure for this server: its URLs
    /// and its end code declared as ending a session.
    public nonisolated var backend: CustomBackend {
        CustomBackend(
            refreshURL: baseURL.appendingPathComponent("auth/refresh"), meURL: baseURL.appendingPathComponent("auth/me"),
            signInURL: baseURL.appendingPathComponent("auth/login"),
            sessionEndingCodes: SessionEndingCodes(ended: [endCode]))
    }

    /// A client configuration wired to this backend, with deterministic jitter (`0.5`).
    public nonisolated func clientConfiguration(
        clock: any SessionClock, store: some SessionStore = InMemorySessionStore(), automaticRefresh: Bool = false,
        logger: Logger? = nil
    ) -> SessionClientConfiguration {
        var configuration = SessionClientConfiguration(
            backend: backend, store: store, clock: clock, transport: self, launchValidation: .skip, jitter: .fixed(0.5),
            automaticRefresh: automaticRefresh)
        if let logger { configuration.logger = logger }
        return configuration
    }

    // MARK: - Test controls

    public func createUser(email: String, password: String) {
        passwords[email.lowercased()] = password
        userIDs[email.lowercased()] = UUID().uuidString.lowercased()
    }

    public func count(_ endpoint: Endpoint) -> Int { counts[endpoint, default: 0] }

    /// Makes the next `times` requests to `endpoint` fail with `fault` (`goTrueError` and `gatewayError` do not apply).
    public func inject(_ fault: FakeFault, on endpoint: Endpoint, times: Int = 1) {
        faults[endpoint, default: []].append(contentsOf: Array(repeating: fault, count: max(0, times)))
    }

    public func clearFaults() { faults = [:] }

    public func setAccessTokenLifetime(_ seconds: Int) { accessTokenLifetime = seconds }

    /// Ends every session of `email` on the server (an admin sign-out).
    public func endSessions(email: String) {
        live = live.filter { $0.value.email != email.lowercased() }
    }

    /// True while `refreshToken` is the live token of its session.
    public func isLive(_ refreshToken: String) -> Bool { live[refreshToken] != nil }

    // MARK: - Transport

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let endpoint = Self.endpoint(of: request)
        counts[endpoint, default: 0] += 1
        var after: FakeFault?
        if var pending = faults[endpoint], !pending.isEmpty {
            let fault = pending.removeFirst()
            faults[endpoint] = pending
            switch fault {
            case .drop(let code): throw URLError(code)
            case .status(let status, let body, let headers): return try respond(request, status, body, headers)
            case .hold(let gate): await gate.pass()
            case .commitThenDrop, .body, .holdAnswer: after = fault
            case .goTrueError, .gatewayError: break
            }
        }
        let answer = try handle(request, endpoint)
        switch after {
        case .commitThenDrop(let code): throw URLError(code)
        case .body(let body, let status): return try respond(request, status, body, [:])
        case .holdAnswer(let gate):
            await gate.pass()
            return answer
        default: return answer
        }
    }

    public static func endpoint(of request: URLRequest) -> Endpoint {
        switch (request.httpMethod ?? "GET", request.url?.path ?? "") {
        case ("POST", "/auth/login"): .login
        case ("POST", "/auth/refresh"): .refresh
        case ("GET", "/auth/me"): .me
        default: .unknown
        }
    }
}
