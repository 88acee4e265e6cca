import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// The verified-token cache and the session-check cache (issue 7): a hit skips
/// ES256, expiry and revocation still apply within their stated bounds, and
/// memory stays bounded.
struct TokenCacheTests {
    /// Keys the test can swap or retire, to tell a cache hit from a fresh verification.
    actor SwappableKeys: VerificationKeySource {
        private var keys: [String: P256.Signing.PublicKey] = [:]
        func set(_ key: P256.Signing.PublicKey?, for kid: String) { keys[kid] = key }
        func verificationKey(kid: String) async throws -> P256.Signing.PublicKey? { keys[kid] }
    }

    static let leeway: TimeInterval = 30

    /// Runs `body` with the server's database up, its keys loaded, and a key
    /// source that starts out holding the server's current key.
    func withKeys(_ body: @escaping @Sendable (TestServer, SwappableKeys, String) async throws -> Void) async throws {
        let server = try await TestServer.make()
        try await server.run { _ in
            let kid = try await server.server.keyRing.currentKeyID()
            let keys = SwappableKeys()
            await keys.set(try await server.server.keyRing.verificationKey(kid: kid), for: kid)
            try await body(server, keys, kid)
        }
    }

    func middleware(_ server: TestServer, keys: SwappableKeys, cache: VerifiedTokenCache?) -> AuthMiddleware<AuthRequestContext> {
        let verifier = AccessTokenVerifier(keys: keys, issuer: "sessionkit", audience: "authenticated", leeway: Self.leeway)
        return AuthMiddleware(verifier: verifier, sessions: nil, clock: server.clock, cache: cache)
    }

    func token(_ server: TestServer, user: String = "user-1") async throws -> String {
        try await TokenForge.signed(
            by: server.server, claims: TokenForge.claims(userID: user, sessionID: "session-1", now: server.clock.now))
    }

    @Test func skipsTheSignatureCheckForARememberedToken() async throws {
        try await withKeys { server, keys, kid in
            let cached = middleware(server, keys: keys, cache: VerifiedTokenCache(capacity: 10))
            let uncached = middleware(server, keys: keys, cache: nil)
            let token = try await token(server)
            #expect(try await cached.verify(token, now: server.clock.now).userID == "user-1")
            // Same kid, another key: a real verification now fails, a cache hit does not look.
            await keys.set(P256.Signing.PrivateKey().publicKey, for: kid)
            #expect(try await cached.verify(token, now: server.clock.now).userID == "user-1")
            await #expect(throws: AuthError.self) { try await uncached.verify(token, now: server.clock.now) }
        }
    }

    @Test func stopsAcceptingARememberedTokenOnceItsKeyRetires() async throws {
        try await withKeys { server, keys, kid in
            let cached = middleware(server, keys: keys, cache: VerifiedTokenCache(capacity: 10))
            let token = try await token(server)
            _ = try await cached.verify(token, now: server.clock.now)
            await keys.set(nil, for: kid)
            await #expect(throws: AuthError.self) { try await cached.verify(token, now: server.clock.now) }
        }
    }

    @Test func rejectsACachedTokenOnceExpiredBeyondTheLeeway() async throws {
        try await withKeys { server, keys, _ in
            let cache = VerifiedTokenCache(capacity: 10)
            let auth = middleware(server, keys: keys, cache: cache)
            let token = try await token(server)
            _ = try await auth.verify(token, now: server.clock.now)
            // TokenForge's tokens live 3600 s: exactly at exp + leeway the entry still answers.
            await server.clock.advance(by: 3600 + Self.leeway)
            _ = try await auth.verify(token, now: server.clock.now)
            #expect(cache.count == 1)
            await server.clock.advance(by: 1)
            await #expect(throws: AuthError.tokenExpired) { try await auth.verify(token, now: server.clock.now) }
            #expect(cache.count == 0)
        }
    }

    @Test func neverHoldsMoreThanItsCapacity() async throws {
        try await withKeys { server, keys, kid in
            let cache = VerifiedTokenCache(capacity: 3)
            let auth = middleware(server, keys: keys, cache: cache)
            var tokens: [String] = []
            for index in 0..<10 {
                let token = try await token(server, user: "user-\(index)")
                tokens.append(token)
                _ = try await auth.verify(token, now: server.clock.now)
                #expect(cache.count <= 3)
            }
            #expect(cache.count == 3)
            // With a wrong key only remembered tokens pass: the newest is, the oldest was evicted.
            await keys.set(P256.Signing.PrivateKey().publicKey, for: kid)
            #expect(try await auth.verify(tokens[9], now: server.clock.now).userID == "user-9")
            await #expect(throws: AuthError.self) { try await auth.verify(tokens[0], now: server.clock.now) }

            let sessions = SessionCheckCache(ttl: 5, capacity: 2)
            for index in 0..<5 {
                sessions.remember(
                    sessionID: "s\(index)", userID: "u", notAfter: server.clock.now.addingTimeInterval(60),
                    now: server.clock.now, epoch: 0)
                #expect(sessions.count <= 2)
            }
        }
    }

    @Test func signOutThroughTheServerTakesEffectAtOnce() async throws {
        let server = try await TestServer.make()
        try await server.run { client in
            let session = try await client.signUp()
            #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .ok)
            #expect(try await client.send(.post, "/auth/v1/logout", bearer: session.accessToken).status == .noContent)
            // The clock has not moved: a remembered "live" answer must not outlast the revocation.
            let after = try await client.send(.get, "/v1/auth/me", bearer: session.accessToken)
            #expect(after.gatewayCode == "SESSION_EXPIRED")
        }
    }

    @Test func revocationOutsideTheServerTakesEffectWithinTheStatedBound() async throws {
        let server = try await TestServer.make { $0.sessionCheckCacheTTL = 5 }
        try await server.run { client in
            let session = try await client.signUp()
            #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .ok)
            try await revokeBehindTheServersBack(server, userID: session.user!.id)
            // Within the bound the remembered answer may still be used ...
            #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .ok)
            await server.clock.advance(by: 5)
            // ... and at the bound it is not.
            let after = try await client.send(.get, "/v1/auth/me", bearer: session.accessToken)
            #expect(after.gatewayCode == "SESSION_EXPIRED")
        }
    }

    @Test func aZeroBoundChecksTheSessionOnEveryRequest() async throws {
        let server = try await TestServer.make { $0.sessionCheckCacheTTL = 0 }
        try await server.run { client in
            let session = try await client.signUp()
            #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .ok)
            try await revokeBehindTheServersBack(server, userID: session.user!.id)
            let after = try await client.send(.get, "/v1/auth/me", bearer: session.accessToken)
            #expect(after.gatewayCode == "SESSION_EXPIRED")
        }
    }

    /// Revokes every session of the user with plain SQL, as another replica or an operator would.
    func revokeBehindTheServersBack(_ server: TestServer, userID: String) async throws {
        let now = server.clock.now.stored
        try await server.server.store.withTransaction { db in
            try await db.raw(
                "UPDATE sessions SET revoked_at = \(bind: now), revoked_reason = 'operator' WHERE user_id = \(bind: userID)"
            ).run()
        }
    }
}
