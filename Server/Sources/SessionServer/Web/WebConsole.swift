import Foundation
import HTTPTypes
import Hummingbird

/// Mounts `/account` and `/admin` on the router, each with its own cookie
/// scoped to its path.
struct WebConsole: Sendable {
    let server: AuthServer

    func register(on router: Router<AuthRequestContext>) {
        let configuration = server.configuration
        let secure = WebCookie.isSecure(externalURL: configuration.externalURL, host: configuration.host)
        let limiter = server.limiters[.webIP]
        let ip: @Sendable (Request, AuthRequestContext) -> String? = { _, context in context.clientIP }
        let limit: @Sendable (Request, AuthRequestContext) async throws -> Void = { _, context in
            if case .limited(let seconds) = try await limiter.attempt(context.clientRateLimitKey) {
                throw AuthError.rateLimited(retryAfter: seconds)
            }
        }
        // The API's per-IP mail budget, shared (issue 37, item 10): one client gets 5 a minute, not 5 on each surface.
        let mailLimiter = server.limiters[.mailIP]
        let mailLimit: @Sendable (Request, AuthRequestContext) async throws -> Void = { _, context in
            if case .limited(let seconds) = try await mailLimiter.attempt(context.clientRateLimitKey) {
                throw AuthError.emailRateLimited(retryAfter: seconds)
            }
        }
        let origin: @Sendable (Request, AuthRequestContext) -> SessionService.Origin = { request, context in
            SessionService.Origin(userAgent: request.headers[.userAgent], ip: ip(request, context))
        }
        let pages = router.group().add(middleware: WebErrorMiddleware())
        let accountWeb = WebPages(
            store: server.store, clock: configuration.clock, cookie: WebCookie(name: "sk_account", path: "/account", secure: secure),
            externalURL: configuration.externalURL)
        // The account pages run their one served script (docs/PASSKEYS.md); the console none.
        let accountPages = pages.group().add(middleware: AccountScriptPolicy())
        AccountPages(
            web: accountWeb, sessions: server.sessions, codes: server.codes,
            signIn: AccountSignInPages(
                web: accountWeb, sessions: server.sessions, codes: server.codes, oauth: server.oauth, limit: limit,
                mailLimit: mailLimit, origin: origin),
            origin: origin
        ).register(on: accountPages)
        AccountPasskeyPages(
            web: accountWeb, service: configuration.passkeys.map { PasskeyService(configuration: $0, sessions: server.sessions) },
            presence: server.codes.presence, limit: limit, origin: origin
        ).register(on: accountPages)
        AccountFactorPages(web: accountWeb, factors: server.factors, limit: limit, origin: origin).register(on: accountPages)
        AdminConsolePages(
            web: WebPages(store: server.store, clock: configuration.clock, cookie: WebCookie(name: "sk_admin", path: "/admin", secure: secure),
                externalURL: configuration.externalURL),
            admin: AdminService(sessions: server.sessions), keyRing: server.keyRing, verifier: server.verifier, limit: limit, ip: ip
        ).register(on: pages)
    }
}
