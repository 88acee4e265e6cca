import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import Logging
import SessionCore
import ServiceLifecycle

/// The auth server, assembled: store, keys, services and router.
///
/// `auth-server serve` and the tests build it the same way:
/// ```swift
/// let server = try await AuthServer(configuration: .init(database: .sqliteInMemory, clock: clock))
/// let app = server.makeApplication()
/// try await app.test(.router) { client in … }   // or run it: try await app.runService()
/// ```
public struct AuthServer: Sendable {
    public let configuration: AuthServerConfiguration
    /// The database, for assertions and tools.
    public let store: AuthStore
    /// The signing keys (rotate with ``KeyRing/rotate()``).
    public let keyRing: KeyRing
    /// Counters served at `/metrics`.
    public let metrics: ServerMetrics
    /// Verifies access tokens with this server's keys and settings.
    public let verifier: AccessTokenVerifier
    /// Access tokens already verified, shared by every request.
    public let tokenCache: VerifiedTokenCache
    let sessions: SessionService
    let oauth: OAuthService
    let codes: EmailCodeService
    /// Every rate limiter, built once from ``RateLimitRule/all``.
    let limiters: RateLimiters
    /// Sends mail in the background; `nil` without mail delivery.
    let mailQueue: MailQueue?
    let logger: Logger

    /// Opens the store and prepares everything; the database is migrated and
    /// the keys loaded when the application starts (``prepare()``).
    public init(configuration: AuthServerConfiguration, logger: Logger? = nil) async throws {
        let logger = logger ?? Logger(label: "auth-server")
        let store = try await AuthStore.open(
            configuration.database, logger: logger, sessionCheckTTL: configuration.sessionCheckCacheTTL)
        if configuration.keyEncryptionKey == nil {
            // Once, at start: the one thing an operator must fix before production.
            logger.warning(
                "No key-encryption key: signing keys are sealed with the default key built into auth-server. Set --key-encryption-key-file or AUTH_SERVER_KEY_ENCRYPTION_KEY."
            )
        }
        let keyRing = KeyRing(
            store: store, clock: configuration.clock, kek: configuration.keyEncryptionKey ?? .embeddedDefault,
            refreshInterval: configuration.keyRefreshInterval, logger: logger)
        let metrics = ServerMetrics()
        let hasher = PasswordHasher(cost: configuration.bcryptCost)
        let limiters = RateLimiters(configuration: configuration, store: store)
        self.limiters = limiters
        self.configuration = configuration
        self.store = store
        self.keyRing = keyRing
        self.metrics = metrics
        self.logger = logger
        self.tokenCache = VerifiedTokenCache(capacity: configuration.verifiedTokenCacheCapacity)
        self.verifier = AccessTokenVerifier(
            keys: keyRing, issuer: configuration.issuer, audience: configuration.audience, leeway: configuration.leeway)
        self.sessions = SessionService(
            store: store,
            issuer: AccessTokenIssuer(
                keyRing: keyRing, issuer: configuration.issuer, audience: configuration.audience,
                lifetime: configuration.accessTokenTTL),
            hasher: hasher,
            decoyHash: await hasher.hash(RefreshTokenCodec.generate()),
            configuration: configuration, metrics: metrics,
            emailLimiter: limiters[.signInEmail], emailHourLimiter: limiters[.signInEmailHour],
            passwordCheckAudit: limiters[.passwordCheckAudit],
            logger: logger)
        if !configuration.oauthProviders.isEmpty {
            logger.info("OAuth providers enabled", metadata: ["providers": "\(configuration.oauthProviders.map(\.name))"])
            if configuration.redirectAllowList.patterns.isEmpty {
                // Not an error: the server works for passwords; say why OAuth sign-ins will be refused.
                logger.warning("The redirect allow-list is empty: every OAuth sign-in will be refused (set AUTH_SERVER_REDIRECT_ALLOW_LIST)")
            }
        }
        self.oauth = OAuthService(
            configuration: configuration, sessions: sessions,
            exchange: ProviderCodeExchange(client: configuration.oauthHTTPClient, logger: logger), logger: logger,
            apple: configuration.apple.map {
                AppleIDTokenVerifier(
                    configuration: $0,
                    keys: RemoteJWKSKeySource(url: $0.jwksURL, fetcher: configuration.appleKeysFetcher, clock: configuration.clock),
                    leeway: configuration.leeway)
            })
        let mailQueue = configuration.mail.map {
            MailQueue(transport: $0.transport, clock: configuration.clock, retryDelays: $0.retryDelays, metrics: metrics, logger: logger)
        }
        if mailQueue == nil {
            logger.notice("Mail is disabled: email codes, links and password resets are off (set --smtp-url and --mail-from)")
        }
        self.mailQueue = mailQueue
        self.codes = EmailCodeService(
            sessions: sessions, mail: configuration.mail, queue: mailQueue,
            addressLimiter: limiters[.emailAddress], guessLimiters: [limiters[.emailCodeHour], limiters[.emailCodeDay]],
            addressGuessLimiter: limiters[.emailCodeAddressDay], nonceLimiters: [limiters[.nonceUserHour], limiters[.nonceUserDay]],
            lockoutAudit: limiters[.emailCodeAudit], domainLimiter: limiters[.mailDomain],
            domainBulkLimiter: limiters[.mailDomainBulk], globalLimiter: limiters[.mailGlobal],
            globalBulkLimiter: limiters[.mailGlobalBulk],
            logger: logger)
    }

    /// Migrates the database, seals any key not yet sealed under the KEK, and
    /// loads (or creates) the signing keys.
    public func prepare() async throws {
        try await store.migrate()
        let sealed = try await keyRing.sealStoredKeys()
        if sealed > 0 { logger.notice("Sealed signing keys under the key-encryption key", metadata: ["count": "\(sealed)"]) }
        try await keyRing.load()
    }

    /// A new service-role key (docs/ADMIN.md): the admin API's credential,
    /// for the operator's backend only, never an app. `name` (letters,
    /// digits, `-_.`, up to 64) is how the console and the audit log name it.
    public func serviceRoleKey(name: String = "service-role", lifetime: TimeInterval) async throws -> String {
        guard ServiceRoleIdentity.isValid(name: name) else {
            throw AuthError.invalidRequest(field: "name", "A key's name is 1 to 64 letters, digits, '-', '_' or '.'.")
        }
        return try await sessions.issuer.issueServiceRole(name: name, now: configuration.clock.now, lifetime: lifetime)
    }

    /// The middleware that applies the 401 contract with this server's keys and sessions.
    public var authMiddleware: AuthMiddleware<AuthRequestContext> {
        var middleware = AuthMiddleware<AuthRequestContext>(
            verifier: verifier, sessions: store, clock: configuration.clock, cache: tokenCache)
        middleware.dpop = dpopVerifier
        middleware.dpopMetrics = metrics
        return middleware
    }

    /// Checks DPoP proofs against this server's URL and the shared replay table (docs/DPOP.md).
    var dpopVerifier: DPoPVerifier {
        var verifier = DPoPVerifier(replay: store, externalURL: configuration.externalURL)
        verifier.nonces = dpopNonces
        return verifier
    }

    /// `--dpop-nonce`: nonces keyed by the KEK every replica holds (docs/DPOP.md, "Nonces").
    var dpopNonces: DPoPNonces? {
        configuration.dpopNonce ? DPoPNonces(kek: configuration.keyEncryptionKey ?? .embeddedDefault) : nil
    }

    /// The DPoP check of every route that answers a session.
    var dpopGate: DPoPGate {
        DPoPGate(verifier: dpopVerifier, required: configuration.requireDPoP, metrics: metrics, clock: configuration.clock)
    }

    /// All routes: `/auth/v1` (GoTrue), `/v1` (gateway), `/metrics`, `/openapi.yaml`.
    public func buildRouter() -> Router<AuthRequestContext> {
        let router = Router(context: AuthRequestContext.self)
        // First, so every route, limit and log line sees the one resolved client address.
        router.add(middleware: ClientAddressMiddleware(trustedProxies: configuration.trustedProxies))
        router.add(middleware: RequestLogMiddleware(metrics: metrics))
        // Browsers running supabase-js call the API cross-origin, from the
        // origins the operator lists; tokens travel in headers, never
        // cookies, so no credentials mode is needed.
        router.add(middleware: CORSAllowListMiddleware(allowList: configuration.corsOrigins, cors: CORSMiddleware(
                allowOrigin: .originBased,
                allowHeaders: [
                    .accept, .authorization, .contentType, .origin, HTTPField.Name("apikey")!,
                    HTTPField.Name("x-client-info")!, GoTrueError.apiVersionHeader, DPoPGate.header,
                ],
                allowMethods: [.get, .post, .put, .patch, .delete, .head, .options],
                exposedHeaders: ["X-Supabase-Api-Version", "Retry-After", "WWW-Authenticate", "DPoP-Nonce"])))
        if let dpopNonces { router.add(middleware: DPoPNonceMiddleware(nonces: dpopNonces, clock: configuration.clock)) }
        let metricsAccess = MetricsAccess(token: configuration.metricsToken)
        router.get("metrics") { request, context in
            switch metricsAccess.decide(headers: request.headers, peer: context.peerIP) {
            case .allowed: break
            case .needsToken:
                return Response(
                    status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8", .wwwAuthenticate: "Bearer"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "/metrics needs the metrics token as a bearer token.\n")))
            case .notLocal:
                return Response(
                    status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string:
                        "/metrics answers local, unforwarded requests only; set AUTH_SERVER_METRICS_TOKEN to scrape it from elsewhere.\n")))
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render())))
        }
        router.get("openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
        }
        let goTrue = router.group("auth/v1").add(middleware: GoTrueErrorMiddleware(metrics: metrics))
        GoTrueRoutes(
            sessions: sessions, keyRing: keyRing,
            ipLimiter: limiters[.tokenIP], mailIPLimiter: limiters[.mailIP], userUpdateLimiter: limiters[.userUpdate],
            anonymousLimiter: limiters[.anonymousSignInIP],
            authMiddleware: authMiddleware, oauth: oauth, codes: codes, dpop: dpopGate
        ).register(on: goTrue)
        FactorRoutes(
            factors: FactorService(sessions: sessions, codes: codes, kek: configuration.keyEncryptionKey ?? .embeddedDefault),
            challengeLimiter: limiters[.mfaChallengeIP], verifyLimiter: limiters[.mfaVerifyIP], dpop: dpopGate
        ).register(on: goTrue.group().add(middleware: authMiddleware))
        IdentityRoutes(oauth: oauth, limit: limiters[.tokenIP]).register(on: goTrue.group().add(middleware: authMiddleware))
        let admin = goTrue.group("admin").add(middleware: AdminMiddleware(verifier: verifier, clock: configuration.clock))
        AdminFactorRoutes(store: store, clock: configuration.clock, ip: { _, context in context.clientIP }).register(on: admin)
        PasskeyRoutes(
            service: configuration.passkeys.map { PasskeyService(configuration: $0, sessions: sessions) },
            authMiddleware: authMiddleware,
            optionsLimiter: limiters[.passkeyOptionsIP], association: configuration.appleAppSiteAssociation,
            dpop: dpopGate
        ).register(on: goTrue, root: router)
        AdminRoutes(
            admin: AdminService(sessions: sessions), externalURL: configuration.externalURL,
            redirects: configuration.redirectAllowList, ip: { _, context in context.clientIP }
        ).register(on: admin)
        WebConsole(server: self).register(on: router)
        let gateway = router.group("v1")
            .add(middleware: GatewayErrorMiddleware(metrics: metrics))
            .add(middleware: authMiddleware)
            .add(middleware: RateLimitMiddleware(limiter: limiters[.gatewayUser]))
        GatewayRoutes(store: store, clock: configuration.clock, presence: codes.presence).register(on: gateway)
        // Last, so it wraps only the not-found responder.
        router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes.map { ($0.path.description, $0.method) }))
        return router
    }

    /// The Hummingbird application: the database, the pruning service and the HTTP server.
    ///
    /// - Parameter onServerRunning: called with the bound port once listening (useful with port 0).
    public func makeApplication(
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> Application<RouterResponder<AuthRequestContext>> {
        var services: [any Service] = [
            DatabaseService(store: store),
            PruneService(store: store, clock: configuration.clock, interval: configuration.pruneInterval, logger: logger),
        ]
        if let mailQueue { services.append(mailQueue) }
        let readTimeout = TimeAmount.milliseconds(Int64(configuration.requestReadTimeout * 1000))
        var app = Application(
            router: buildRouter(),
            // Without a proxy in front, the server itself bounds idle and slow connections and their number (issue 29, item 14).
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [RequestReadTimeoutHandler(timeout: readTimeout)],
                    idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000)))),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "auth-server",
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maximumConnections)),
            services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
        let server = self
        app.beforeServerStarts { try await server.prepare() }
        return app
    }
}

/// Builds the auth server application (Hummingbird template style), as `auth-server serve` does.
public func buildApplication(
    configuration: AuthServerConfiguration, logger: Logger? = nil
) async throws -> some ApplicationProtocol {
    try await AuthServer(configuration: configuration, logger: logger).makeApplication()
}

extension AuthServer {
    /// Runs `body` with the database connected (for one-shot tools such as
    /// `auth-server migrate`), then closes it.
    public func withDatabase(_ body: @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            let serviceGroup = ServiceGroup(
                configuration: .init(services: [DatabaseService(store: store)], logger: logger))
            group.addTask { try await serviceGroup.run() }
            do {
                try await body()
            } catch {
                await serviceGroup.triggerGracefulShutdown()
                throw error
            }
            await serviceGroup.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }
}
