import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import SessionServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Metrics, request logs, pruning, rate limits, live serving.
struct OperationsTests {
    @Test(arguments: TestDatabase.all)
    func countsSignInsRefreshesReuseAndUnauthorizedInMetrics(database: TestDatabase) async throws {
        let logs = CapturedLogs()
        let test = try await TestServer.make(database, logger: logs.logger())
        try await test.runLive { client in
            let session = try await client.signUp()
            _ = try await client.signIn("ada@example.com", password: "wrong-password")
            let next = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            _ = try await client.refresh(next.refreshToken)
            await test.clock.advance(by: 11)
            _ = try await client.refresh(session.refreshToken)
            // A second try on the family already revoked for reuse is not a second theft.
            let again = try await client.refresh(session.refreshToken)
            #expect(again.goTrueErrorCode == "refresh_token_already_used")
            _ = try await client.send(.get, "/v1/auth/me")
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.status == .ok)
            let text = metrics.text
            #expect(text.contains(#"auth_sign_ins_total{result="failure"} 1"#))
            #expect(text.contains(#"auth_refreshes_total{outcome="rotated"} 2"#))
            #expect(text.contains("auth_refresh_reuse_detected_total 1\n"), "\(text)")
            #expect(text.contains(#"auth_unauthorized_total{code="AUTH_REQUIRED"} 1"#))
            // The request counters are made once, at start: they must be the registry's own.
            #expect(text.contains(#"http_requests_total{status="401"} 1"#), "\(text)")
        }
        // The detection is also a warning in the log, once, naming the revoked session.
        let warnings = logs.all.filter { $0.hasPrefix("warning Refresh token reuse detected") }
        #expect(warnings.count == 1, "\(logs.all)")
        #expect(warnings.first?.contains("session.id") == true)
    }

    @Test(arguments: TestDatabase.all)
    func logsOneLinePerRequestWithoutTokens(database: TestDatabase) async throws {
        let logs = CapturedLogs()
        let test = try await TestServer.make(database, logger: logs.logger())
        let tokens = try await test.run { client in
            let session = try await client.signUp()
            let next = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            _ = try await client.send(.get, "/v1/auth/me?access_token=\(next.accessToken)", bearer: next.accessToken)
            return [session.accessToken, session.refreshToken, next.accessToken, next.refreshToken]
        }
        let requestLines = logs.all.filter { $0.contains("/auth/v1/") || $0.contains("/v1/") }
        #expect(requestLines.count == 3)
        #expect(requestLines.contains { $0.contains("POST /auth/v1/token 200") })
        #expect(requestLines.contains { $0.contains("GET /v1/auth/me 200") })
        for line in logs.all {
            for token in tokens {
                #expect(!line.contains(token))
                #expect(!line.contains(String(token.prefix(12))))
            }
        }
    }

    @Test(arguments: TestDatabase.all)
    func prunesExpiredRefreshTokens(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let old = try await client.signUp()
            let oldSession = try #require(try UnverifiedJWT(old.accessToken).claims.sessionId)
            await test.clock.advance(by: 31 * 86_400)
            let current = try await client.signUp("grace@example.com")
            let currentSession = try #require(try UnverifiedJWT(current.accessToken).claims.sessionId)
            let pruned = try await test.server.store.pruneExpired(now: test.clock.now)
            #expect(pruned == 1)
            #expect(try await test.server.store.refreshTokens(sessionID: oldSession).isEmpty)
            #expect(try await test.server.store.refreshTokens(sessionID: currentSession).count == 1)
            #expect(try await client.refresh(current.refreshToken).status == .ok)
        }
    }

    @Test(arguments: TestDatabase.all)
    func pruneServiceRunsOnTheInjectedClock(database: TestDatabase) async throws {
        let test = try await TestServer.make(database) { $0.pruneInterval = 3600 }
        try await test.run { client in
            let old = try await client.signUp()
            let sessionID = try #require(try UnverifiedJWT(old.accessToken).claims.sessionId)
            // Jump past the refresh lifetime without waking anyone, then let one prune interval pass.
            test.clock.set(to: test.clock.now.addingTimeInterval(31 * 86_400))
            #expect(await test.clock.waitForSleepers(count: 1))
            await test.clock.advance(by: 3600)
            var remaining = try await test.server.store.refreshTokens(sessionID: sessionID).count
            for _ in 0..<1000 where remaining > 0 {
                await Task.yield()
                remaining = try await test.server.store.refreshTokens(sessionID: sessionID).count
            }
            #expect(remaining == 0)
        }
    }

    @Test(arguments: TestDatabase.all)
    func limitsPasswordSignInsPerEmail(database: TestDatabase) async throws {
        let test = try await TestServer.make(database) { $0.passwordSignInsPerMinutePerEmail = 3 }
        try await test.run { client in
            _ = try await client.signUp()
            for _ in 0..<3 { #expect(try await client.signIn("ada@example.com", password: "nope-nope").status == .badRequest) }
            let limited = try await client.signIn("ADA@example.com", password: "correct-horse")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.goTrueErrorCode == "over_request_rate_limit")
            #expect(limited.headers[.retryAfter] == "60")
            // Another email is not affected, and the window passes.
            #expect(try await client.signIn("grace@example.com", password: "whatever").status == .badRequest)
            await test.clock.advance(by: 60)
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .ok)
        }
    }

    @Test(arguments: TestDatabase.all)
    func limitsTokenEndpointsPerClientIP(database: TestDatabase) async throws {
        let test = try await TestServer.make(database) {
            $0.tokenRequestsPerMinutePerIP = 2
            $0.trustedProxies = try! TrustedProxies(parsing: "127.0.0.1,::1")
        }
        try await test.runLive { client in
            let first: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.7"]
            let second: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "198.51.100.1"]
            for _ in 0..<2 {
                #expect(try await client.send(.post, "/auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"x"}"#, headers: first).status == .badRequest)
            }
            let limited = try await client.send(.post, "/auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"x"}"#, headers: first)
            #expect(limited.status == .tooManyRequests)
            #expect(try await client.send(.post, "/auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"x"}"#, headers: second).status == .badRequest)
        }
    }

    /// Behind a trusted proxy, a client that writes its own `X-Forwarded-For`
    /// entries cannot step out of its limit: only the hop the proxy added counts.
    @Test func aSpoofedForwardedForDoesNotEscapeTheLimit() async throws {
        let test = try await TestServer.make(.sqlite) {
            $0.tokenRequestsPerMinutePerIP = 2
            $0.trustedProxies = try! TrustedProxies(parsing: "127.0.0.1,::1")
        }
        try await test.runLive { client in
            var statuses: [HTTPResponse.Status] = []
            for attempt in 0..<3 {
                let headers: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "198.18.0.\(attempt), 203.0.113.7"]
                statuses.append(try await client.send(.post, "/auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"x"}"#, headers: headers).status)
            }
            #expect(statuses == [.badRequest, .badRequest, .tooManyRequests])
        }
    }

    @Test(arguments: TestDatabase.all)
    func limitsGatewayRequestsPerUserWithTheEnvelope(database: TestDatabase) async throws {
        let test = try await TestServer.make(database) { $0.gatewayRequestsPerMinutePerUser = 2 }
        try await test.run { client in
            let session = try await client.signUp()
            for _ in 0..<2 { #expect(try await client.send(.get, "/v1/activities", bearer: session.accessToken).status == .ok) }
            let limited = try await client.send(.get, "/v1/activities", bearer: session.accessToken)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.gatewayCode == "RATE_LIMITED")
            #expect(limited.headers[.retryAfter] == "60")
        }
    }

    @Test func servesOverALiveLoopbackSocket() async throws {
        let test = try await TestServer.make()
        try await test.runLive { client in
            #expect(client.port != nil)
            #expect(try await client.send(.get, "/auth/v1/health").status == .ok)
            let session = try await client.signUp()
            let refreshed = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: refreshed.accessToken).status == .ok)
        }
    }

    @Test func runsInProcessForEndToEndTests() async throws {
        let test = try await TestServer.make()
        let health = try await test.server.withRunningServer { base in
            #expect(base.port != nil && base.port != 0)
            let (data, response) = try await URLSession.shared.data(from: base.appendingPathComponent("auth/v1/health"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            return String(decoding: data, as: UTF8.self)
        }
        #expect(health.contains("GoTrue"))
    }
}
