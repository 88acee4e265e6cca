import Foundation
import HTTPTypes
import Hummingbird

/// Mounts `/account` and `/admin` on the router, each with its own cookie
/// scoped to its path.
struct WebConsole: Sendable {
    let server: AuthServer
    let trustedProxies: TrustedProxies

    func register(on router: Router<AuthRequestContext>) {
        let configuration = server.configuration
        let secure = WebCookie.isSecure(externalURL: configuration.externalURL, host: configuration.host)
        let limiter = AuthServer.limiter(
            "web-ip", configuration.tokenRequestsPerMinutePerIP, configuration, server.store)
        let proxies = trustedProxies
        let ip: @Sendable (Request, AuthRequestContext) -> String? = { request, context in
            proxies.clientAddress(peer: context.remoteIP, forwardedFor: request.headers[values: HTTPField.Name("X-Forwarded-For")!])?
                .description
        }
        let limit: @Sendable (Request, AuthRequestContext) async throws -> Void = { request, context in
            // Per /64 for IPv6, as the API counts (one subscriber holds a whole /64).
            let key =
                proxies.clientAddress(
                    peer: context.remoteIP, forwardedFor: request.headers[values: HTTPField.Name("X-Forwarded-For")!]
                )?.rateLimitKey ?? "unknown"
            if case .limited(let seconds) = try await limiter.attempt(key) { throw AuthError.rateLimited(retryAfter: seconds) }
        }
        let mailLimiter = AuthServer.limiter(
            "web-mail-ip", configuration.mailRequestsPerMinutePerIP, configuration, server.store)
        let mailLimit: @Sendable (Request, AuthRequestContext) async throws -> Void = { request, context in
            let key =
                proxies.clientAddress(
                    peer: context.remoteIP, forwardedFor: request.headers[values: HTTPField.Name("X-Forwarded-For")!]
                )?.rateLimitKey ?? "unknown"
            if case .limited(let seconds) = try await mailLimiter.attempt(key) { throw AuthError.emailRateLimited(retryAfter: seconds) }
        }
        let origin: @Sendable (Request, AuthRequestContext) -> SessionService.Origin = { request, context in
            SessionService.Origin(userAgent: request.headers[.userAgent], ip: ip(request, context))
        }
        let pages = router.group().add(middleware: WebErrorMiddleware())
        let accountWeb = WebPages(
            store: server.store, clock: configuration.clock, cookie: WebCookie(name: "sk_account", path: "/account", secure: secure),
            externalURL: configuration.externalURL)
        AccountPages(
            web: accountWeb, sessions: server.sessions, codes: server.codes,
            signIn: AccountSignInPages(
                web: accountWeb, sessions: server.sessions, codes: server.codes, oauth: server.oauth, limit: limit,
                mailLimit: mailLimit, origin: origin),
            origin: origin
        ).register(on: pages)
        AdminConsolePages(
            web: WebPages(store: server.store, clock: configuration.clock, cookie: WebCookie(name: "sk_admin", path: "/admin", secure: secure),
                externalURL: configuration.externalURL),
            admin: AdminService(sessions: server.sessions), keyRing: server.keyRing, verifier: server.verifier, limit: limit, ip: ip
        ).register(on: pages)
    }
}
