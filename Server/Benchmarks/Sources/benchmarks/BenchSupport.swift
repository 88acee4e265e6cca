import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore
import SessionKit
import SessionServer

/// Shared set-up: servers tuned for load (no rate limits), clients, raw HTTP.
enum Bench {
    static func quietLogger(_ label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = .critical
        return logger
    }

    /// A loopback server configuration with rate limits out of the way (they
    /// would turn a load test into a 429 test) and cheap bcrypt unless asked.
    static func serverConfiguration(
        clock: any SessionClock, database: DatabaseLocation = .sqliteInMemory, bcryptCost: UInt8 = 4
    ) -> AuthServerConfiguration {
        var configuration = AuthServerConfiguration(
            host: "127.0.0.1", port: 0, database: database, bcryptCost: bcryptCost, clock: clock)
        configuration.tokenRequestsPerMinutePerIP = 1_000_000_000
        configuration.passwordSignInsPerMinutePerEmail = 1_000_000_000
        configuration.passwordSignInsPerHourPerEmail = 1_000_000_000
        configuration.gatewayRequestsPerMinutePerUser = 1_000_000_000
        return configuration
    }

    static func makeServer(_ configuration: AuthServerConfiguration) async throws -> AuthServer {
        try await AuthServer(configuration: configuration, logger: quietLogger("bench-server"))
    }

    /// One URLSession for everything a benchmark sends, so both sides of a ratio share it.
    static func makeURLSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.timeoutIntervalForRequest = 120
        return URLSession(configuration: configuration)
    }

    static func makeClient(
        baseURL: URL, store: any SessionStore, clock: any SessionClock, transport: any HTTPTransport,
        leeway: TimeInterval = SessionDefaults.serverLeeway, authorizedOrigins: [URL]? = nil
    ) -> SessionClient {
        var configuration = SessionClientConfiguration(
            backend: .goTrue(url: baseURL, apiKey: "anon-key"), store: store, clock: clock, transport: transport,
            launchValidation: .skip, leeway: leeway, jitter: .fixed(0), automaticRefresh: false,
            logger: quietLogger("bench-client"))
        configuration.authorizedOrigins = authorizedOrigins
        return SessionClient(configuration: configuration)
    }

    /// A raw JSON request through `transport`.
    static func request(
        _ method: String, _ url: URL, json: String? = nil, bearer: String? = nil
    ) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("anon-key", forHTTPHeaderField: "apikey")
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        return request
    }

    static func signUp(
        _ baseURL: URL, email: String, password: String = "correct-horse-battery", transport: any HTTPTransport
    ) async throws -> TokenResponse {
        let (data, response) = try await transport.send(
            request(
                "POST", baseURL.appendingPathComponent("auth/v1/signup"),
                json: #"{"email":"\#(email)","password":"\#(password)"}"#))
        guard response.statusCode == 200 else { throw BenchError("sign-up answered \(response.statusCode)") }
        return try WireCoding.decoder().decode(TokenResponse.self, from: data)
    }

    static func refresh(_ baseURL: URL, token: String, transport: any HTTPTransport) async throws -> TokenResponse {
        var components = URLComponents(url: baseURL.appendingPathComponent("auth/v1/token"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "grant_type", value: "refresh_token")]
        let (data, response) = try await transport.send(
            request("POST", components.url!, json: #"{"refresh_token":"\#(token)"}"#))
        guard response.statusCode == 200 else { throw BenchError("refresh answered \(response.statusCode)") }
        return try WireCoding.decoder().decode(TokenResponse.self, from: data)
    }

    static func refreshCount(_ server: AuthServer) -> Double {
        PrometheusText.sum("auth_refreshes_total", in: server.metrics.render())
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

