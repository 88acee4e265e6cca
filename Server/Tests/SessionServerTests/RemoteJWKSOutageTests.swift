import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// A remote JWKS that is slow, down or hostile: one fetch at a time, the last
/// good keys for a bounded while, and a 503 (never a 500) when nothing is left.
struct RemoteJWKSOutageTests {
    /// Serves a JWKS, fails on demand, and can hold fetches at a gate.
    actor ScriptedFetcher: JWKSFetcher {
        var jwks: JWKS
        var failing = false
        var gate: FakeGate?
        private(set) var fetches = 0
        init(jwks: JWKS) { self.jwks = jwks }
        func fail(_ value: Bool) { failing = value }
        func hold(_ gate: FakeGate?) { self.gate = gate }
        func fetchJWKS(from url: URL) async throws -> JWKS {
            fetches += 1
            if let gate { await gate.pass() }
            if failing { throw URLError(.cannotConnectToHost) }
            return jwks
        }
    }

    static let url = URL(string: "https://auth.example/auth/v1/.well-known/jwks.json")!

    static func issuedKeys() async throws -> (TestServer, TokenResponse, JWKS, String) {
        let issuer = try await TestServer.make()
        let (session, jwks) = try await issuer.run { client in
            (try await client.signUp(), try await client.send(.get, "/auth/v1/.well-known/jwks.json").decode(JWKS.self))
        }
        let kid = try #require(jwks.keys.first?.kid)
        return (issuer, session, jwks, kid)
    }

    /// Before: every caller that found the cache cold fetched on its own.
    @Test func concurrentCallersShareOneFetch() async throws {
        let (issuer, _, jwks, kid) = try await Self.issuedKeys()
        let fetcher = ScriptedFetcher(jwks: jwks)
        let gate = FakeGate()
        await fetcher.hold(gate)
        let source = RemoteJWKSKeySource(url: Self.url, fetcher: fetcher, clock: issuer.clock)
        let found = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 { group.addTask { try await source.verificationKey(kid: kid) != nil } }
            await gate.waitForArrivals(1)
            for _ in 0..<20 { await Task.yield() }
            await gate.open()
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(found.allSatisfy { $0 })
        #expect(await fetcher.fetches == 1)
    }

    /// Before: a failed fetch after the cache aged threw, and every request was a 500.
    @Test func theLastGoodKeysServeThroughAnOutageForABoundedWhile() async throws {
        let (issuer, _, jwks, kid) = try await Self.issuedKeys()
        let fetcher = ScriptedFetcher(jwks: jwks)
        let source = RemoteJWKSKeySource(url: Self.url, fetcher: fetcher, clock: issuer.clock, cacheLifetime: 600, staleLifetime: 3600)
        #expect(try await source.verificationKey(kid: kid) != nil)
        await fetcher.fail(true)
        await issuer.clock.advance(by: 601)
        #expect(try await source.verificationKey(kid: kid) != nil, "the last good keys stop serving at the first failure")
        // Failing: no new fetch on every call, only after the refetch interval.
        let before = await fetcher.fetches
        _ = try await source.verificationKey(kid: kid)
        #expect(await fetcher.fetches == before)
        await issuer.clock.advance(by: 3600)
        await #expect(throws: AuthError.self) { try await source.verificationKey(kid: kid) }
        await fetcher.fail(false)
        await issuer.clock.advance(by: 11)
        #expect(try await source.verificationKey(kid: kid) != nil, "recovers once the JWKS answers")
    }

    @Test func anOutageWithNoKeysIsA503NotA500() async throws {
        let (issuer, session, jwks, _) = try await Self.issuedKeys()
        let fetcher = ScriptedFetcher(jwks: jwks)
        await fetcher.fail(true)
        let source = RemoteJWKSKeySource(url: Self.url, fetcher: fetcher, clock: issuer.clock)
        let verifier = AccessTokenVerifier(keys: source, issuer: "sessionkit", audience: "authenticated", leeway: 60)
        let router = Router(context: RemoteJWKSTests.OtherAppContext.self)
        router.group("api").add(middleware: AuthMiddleware(verifier: verifier, sessions: nil, clock: issuer.clock))
            .get("whoami") { _, context in context.identity?.userID ?? "nobody" }
        try await Application(router: router).test(.router) { client in
            let response = try await client.send(.get, "/api/whoami", bearer: session.accessToken)
            #expect(response.status == .serviceUnavailable, "\(response.status)")
            #expect(response.headers[.retryAfter] != nil)
        }
    }

    @Test func anOversizedJWKSIsRefused() throws {
        let big = Data(#"{"keys":[],"pad":""#.utf8) + Data(repeating: 0x61, count: 70 * 1024) + Data(#""}"#.utf8)
        #expect(throws: ConfigurationError.self) { try URLSessionJWKSFetcher.decode(big, status: 200, from: Self.url) }
        #expect(throws: ConfigurationError.self) { try URLSessionJWKSFetcher.decode(Data(#"{"keys":[]}"#.utf8), status: 500, from: Self.url) }
        #expect(try URLSessionJWKSFetcher.decode(Data(#"{"keys":[]}"#.utf8), status: 200, from: Self.url).keys.isEmpty)
    }
}
