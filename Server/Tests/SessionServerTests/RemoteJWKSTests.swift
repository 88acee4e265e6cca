import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import SessionServer
import Testing

/// ``AuthMiddleware`` in another app, verifying with a remote JWKS.
struct RemoteJWKSTests {
    /// Serves a JWKS from memory and counts fetches.
    actor FakeFetcher: JWKSFetcher {
        var jwks: JWKS
        private(set) var fetches = 0
        init(jwks: JWKS) { self.jwks = jwks }
        func set(_ jwks: JWKS) { self.jwks = jwks }
        func fetchJWKS(from url: URL) async throws -> JWKS {
            fetches += 1
            return jwks
        }
    }

    /// Another app's own request context: all the middleware needs is a place for the identity.
    struct OtherAppContext: AuthenticatedRequestContext {
        var coreContext: CoreRequestContextStorage
        var identity: AuthenticatedIdentity?
        init(source: ApplicationRequestContextSource) {
            coreContext = .init(source: source)
        }
    }

    /// A separate app with one protected route.
    func protectedApp(fetcher: FakeFetcher, clock: ManualClock) -> some ApplicationProtocol {
        let source = RemoteJWKSKeySource(
            url: URL(string: "https://auth.example/auth/v1/.well-known/jwks.json")!, fetcher: fetcher, clock: clock)
        let verifier = AccessTokenVerifier(keys: source, issuer: "sessionkit", audience: "authenticated", leeway: 60)
        let router = Router(context: OtherAppContext.self)
        router.group("api").add(middleware: AuthMiddleware(verifier: verifier, sessions: nil, clock: clock))
            .get("whoami") { _, context in context.identity?.userID ?? "nobody" }
        return Application(router: router)
    }

    @Test func verifiesTokensWithARemoteJWKSAndRefetchesOnUnknownKid() async throws {
        let issuer = try await TestServer.make()
        let (session, jwks) = try await issuer.run { client in
            (try await client.signUp(), try await client.send(.get, "/auth/v1/.well-known/jwks.json").decode(JWKS.self))
        }
        let fetcher = FakeFetcher(jwks: JWKS(keys: []))
        let app = protectedApp(fetcher: fetcher, clock: issuer.clock)
        try await app.test(.router) { client in
            // The first fetch finds no key; the kid is unknown until the set changes and the throttle passes.
            #expect(try await client.send(.get, "/api/whoami", bearer: session.accessToken).gatewayCode == "AUTH_REQUIRED")
            await fetcher.set(jwks)
            #expect(try await client.send(.get, "/api/whoami", bearer: session.accessToken).status == .unauthorized)
            #expect(await fetcher.fetches == 1)
            await issuer.clock.advance(by: 11)
            let ok = try await client.send(.get, "/api/whoami", bearer: session.accessToken)
            #expect(ok.status == .ok)
            #expect(ok.text == session.user!.id)
            // Cached now: no more fetches for a known kid.
            _ = try await client.send(.get, "/api/whoami", bearer: session.accessToken)
            #expect(await fetcher.fetches == 2)
            // The 401 contract holds here too.
            let missing = try await client.send(.get, "/api/whoami")
            #expect(missing.gatewayCode == "AUTH_REQUIRED")
            #expect(missing.headers[.wwwAuthenticate] == nil)
            await issuer.clock.advance(by: 3600 + 61)
            let expired = try await client.send(.get, "/api/whoami", bearer: session.accessToken)
            #expect(expired.gatewayCode == "SESSION_EXPIRED")
        }
    }
}
