import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SessionServer

/// What the server shows to whom: browser origins by allow-list, `/metrics`
/// to local scrapers or the token's holder.
struct ExposureTests {
    static func preflight(_ client: any TestClientProtocol, origin: String) async throws -> TestResponse {
        try await client.executeRequest(
            uri: "/auth/v1/token?grant_type=password", method: .options,
            headers: [.origin: origin, HTTPField.Name("Access-Control-Request-Method")!: "POST"], body: nil)
    }

    /// Before: any `Origin` was reflected, so every site could drive the API from its visitors' browsers.
    @Test func onlyListedOriginsGetCORS() async throws {
        let test = try await TestServer.make { $0.corsOrigins = try! CORSAllowList(parsing: "https://app.example, http://localhost:3000/") }
        try await test.run { client in
            let listed = try await Self.preflight(client, origin: "https://APP.example")
            #expect(listed.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == "https://APP.example")
            let local = try await Self.preflight(client, origin: "http://localhost:3000")
            #expect(local.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == "http://localhost:3000")
            let other = try await Self.preflight(client, origin: "https://evil.example")
            #expect(other.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == nil)
            let simple = try await client.executeRequest(
                uri: "/auth/v1/settings", method: .get, headers: [.origin: "https://evil.example"], body: nil)
            #expect(simple.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == nil)
        }
        let closed = try await TestServer.make()
        try await closed.run { client in
            let other = try await Self.preflight(client, origin: "https://app.example")
            #expect(other.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == nil, "no origin is allowed by default")
        }
    }

    @Test func corsOriginsAreReadAndChecked() throws {
        let list = try CORSAllowList(parsing: "https://a.example,http://localhost:8080")
        #expect(list.description == "http://localhost:8080,https://a.example")
        #expect(try CORSAllowList(parsing: "*").allows("https://anything.example"))
        for bad in ["a.example", "https://a.example/path", "ftp://a.example", "https://user@a.example"] {
            let error = try #require(throws: ConfigurationError.self) { try CORSAllowList(parsing: bad) }
            #expect(error.description.contains(bad))
        }
        let resolved = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(), environment: ["AUTH_SERVER_CORS_ORIGINS": "https://a.example"])
        #expect(resolved.corsOrigins.allows("https://a.example"))
    }

    /// Before: `/metrics` answered anyone, through any proxy.
    @Test func metricsAnswerLocalUnforwardedRequestsOnly() async throws {
        let test = try await TestServer.make()
        try await test.runLive { client async throws in
            #expect(try await client.send(.get, "/metrics").status == .ok)
            let forwarded: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.7"]
            #expect(try await client.send(.get, "/metrics", headers: forwarded).status == .forbidden)
        }
        let access = MetricsAccess(token: nil)
        #expect(access.decide(headers: [:], peer: "203.0.113.7") == .notLocal)
        #expect(access.decide(headers: [:], peer: nil) == .notLocal)
        #expect(access.decide(headers: [:], peer: "::1") == .allowed)
        #expect(access.decide(headers: [HTTPField.Name("Forwarded")!: "for=1.2.3.4"], peer: "127.0.0.1") == .notLocal)
    }

    @Test func withATokenMetricsAnswerItsHolderFromAnywhere() async throws {
        let token = "metrics-token-0123456789"
        let test = try await TestServer.make { $0.metricsToken = token }
        try await test.runLive { client async throws in
            #expect(try await client.send(.get, "/metrics").status == .unauthorized)
            #expect(try await client.send(.get, "/metrics", bearer: "wrong-token-0123456789").status == .unauthorized)
            #expect(try await client.send(.get, "/metrics", bearer: token).status == .ok)
        }
        #expect(MetricsAccess(token: token).decide(headers: [.authorization: "Bearer \(token)"], peer: "203.0.113.7") == .allowed)
        #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: ["AUTH_SERVER_METRICS_TOKEN": "short"])
        }
    }
}
