import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SessionCore

/// The GoTrue-compatible API under `/auth/v1`, so unmodified Supabase
/// clients work. The `apikey` header is accepted and ignored.
struct GoTrueRoutes: Sendable {
    let sessions: SessionService
    let keyRing: KeyRing
    let ipLimiter: any RateLimiting
    /// Per client IP, for requests that may send mail: below ``ipLimiter``'s budget.
    let mailIPLimiter: any RateLimiting
    /// Per user: an update may carry a password, and each costs a bcrypt hash.
    let userUpdateLimiter: any RateLimiting
    /// Per client IP, an hour: anonymous sign-ins (GoTrue's `RATE_LIMIT_ANONYMOUS_USERS`).
    let anonymousLimiter: any RateLimiting
    let authMiddleware: AuthMiddleware<AuthRequestContext>
    let oauth: OAuthService
    let codes: EmailCodeService
    /// DPoP proofs of the grants (docs/DPOP.md).
    let dpop: DPoPGate

    func register(on group: RouterGroup<AuthRequestContext>) {
        group.get("health") { _, _ in
            try JSONResponse.make([
                "name": "GoTrue", "version": "sessionkit-\(SessionCoreVersion.contract)",
                "description": "SessionKit auth server, GoTrue-compatible",
            ])
        }
        let settings = Settings(
            providers: oauth.configuration.oauthProviders.map(\.name) + (oauth.apple == nil ? [] : ["apple"]),
            mailerAutoconfirm: sessions.configuration.mailerAutoconfirm,
            anonymousUsers: sessions.configuration.anonymousSignIns, dpopRequired: dpop.required)
        group.get("settings") { _, _ in try JSONResponse.make(settings) }
        let email = EmailRoutes(
            codes: codes, externalURL: oauth.configuration.externalURL, redirects: oauth.configuration.redirectAllowList,
            limit: { request, context in try await limitByIP(request, context) },
            mailLimit: { request, context in try await limitMailByIP(request, context) },
            origin: { request, context in origin(request, context) },
            bearer: { request in try await optionalBearer(request) },
            binding: { request in try await dpop.grantBinding(request) }
        )
        group.get(".well-known/jwks.json") { _, _ in try JSONResponse.make(try await keyRing.jwks()) }
        group.post("signup") { request, context in
            try await limitByIP(request, context)
            let body = try await RequestDecoding.decode(SignUpRequest.self, from: request)
            if body.isAnonymous { return try await signUpAnonymously(body, request, context) }
            let credentials = try body.passwordCredentials()
            if sessions.configuration.mailerAutoconfirm {
                let origin = origin(request, context, dpop: try await dpop.grantBinding(request))
                return try JSONResponse.make(try await sessions.signUp(credentials, origin: origin))
            }
            try await limitMailByIP(request, context)
            return try JSONResponse.make(try await codes.signUpUnconfirmed(credentials, link: try email.link(request)))
        }
        group.post("token") { request, context in try await token(request, context) }
        OAuthRoutes(oauth: oauth, externalURL: oauth.configuration.externalURL) { request, context in
            try await limitByIP(request, context)
        }.register(on: group)
        email.register(on: group)

        let bearer = group.group().add(middleware: authMiddleware)
        bearer.get("user") { _, context in
            let identity = try context.requireIdentity()
            guard let user = try await sessions.store.currentUser(id: identity.userID, now: sessions.clock.now) else {
                throw AuthError.sessionRevoked
            }
            return try JSONResponse.make(user.sessionUser)
        }
        bearer.put("user") { request, context in
            let identity = try context.requireIdentity()
            try await limitByIP(request, context)
            if case .limited(let seconds) = try await userUpdateLimiter.attempt(identity.userID) {
                throw AuthError.rateLimited(retryAfter: seconds)
            }
            let update = try await RequestDecoding.decode(UserUpdate.self, from: request)
            return try JSONResponse.make(
                try await updateUser(identity, update, ip: clientIP(request, context)) {
                    // Only a request that mails pays the mail limits (GoTrueRoutes+EmailChange.swift).
                    try await limitMailByIP(request, context)
                    return try email.link(request)
                })
        }
        // GoTrue routes it as GET (its clients call it so); POST too, since it sends mail.
        bearer.get("reauthenticate") { request, context in try await reauthenticate(request, context) }
        bearer.post("reauthenticate") { request, context in try await reauthenticate(request, context) }
        bearer.post("logout") { request, context in
            let identity = try context.requireIdentity()
            let scope = request.uri.queryParameters.get("scope") ?? "global"
            if scope == "others" {
                // Signing every other device out asks for the proof `/account` asks for (issue 37, item 8):
                // a stolen access token alone must not lock the owner out of their devices.
                guard let user = try await sessions.store.user(id: identity.userID) else { throw AuthError.sessionRevoked }
                let proof = try await RequestDecoding.decodeIfPresent(PresenceProof.self, from: request)
                try await codes.presence.require(
                    identity, user: user, currentPassword: proof?.currentPassword, nonce: proof?.nonce, ip: clientIP(request, context))
            }
            try await sessions.logout(identity, scope: scope, ip: clientIP(request, context))
            return Response(status: .noContent)
        }
    }

    /// GoTrue's order (`internal/api/api.go`, the `/signup` route): the switch
    /// first (422 `anonymous_provider_disabled`), then the per-IP hourly limit.
    private func signUpAnonymously(
        _ body: SignUpRequest, _ request: Request, _ context: AuthRequestContext
    ) async throws -> Response {
        guard sessions.configuration.anonymousSignIns else { throw AuthError.anonymousProviderDisabled }
        if case .limited(let seconds) = try await anonymousLimiter.attempt(context.clientRateLimitKey) {
            throw AuthError.rateLimited(retryAfter: seconds)
        }
        let origin = origin(request, context, dpop: try await dpop.grantBinding(request))
        return try JSONResponse.make(try await sessions.signInAnonymously(metadata: body.data ?? [:], origin: origin))
    }

    /// Mails the signed-in user a nonce for a sensitive change (docs/EMAIL.md, "Re-authentication").
    private func reauthenticate(_ request: Request, _ context: AuthRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        // The per-IP mail budget too (issue 37, item 3): without it, a few accounts
        // calling this every minute spent the server's mail budget from one address.
        try await limitByIP(request, context)
        try await limitMailByIP(request, context)
        guard let user = try await sessions.store.currentUser(id: identity.userID, now: sessions.clock.now) else {
            throw AuthError.sessionRevoked
        }
        try await codes.sendReauthentication(to: user, ip: clientIP(request, context), from: "api")
        return try JSONResponse.make([String: String]())
    }

    private func token(_ request: Request, _ context: AuthRequestContext) async throws -> Response {
        try await limitByIP(request, context)
        switch request.uri.queryParameters.get("grant_type") {
        case "password":
            let body = try await RequestDecoding.decode(PasswordCredentials.self, from: request)
            let origin = origin(request, context, dpop: try await dpop.grantBinding(request))
            return try JSONResponse.make(try await sessions.signIn(email: body.email, password: body.password, origin: origin))
        case "refresh_token":
            let body = try await RequestDecoding.decode(RefreshTokenRequest.self, from: request)
            let proof = try await dpop.grantBinding(request)
            let (response, outcome) = try await sessions.refresh(body.refreshToken, proof: proof, ip: clientIP(request, context))
            context.logger.debug("Refreshed", metadata: ["outcome": "\(outcome.rawValue)"])
            return try JSONResponse.make(response)
        case "id_token":
            let body = try await RequestDecoding.decode(IDTokenGrantBody.self, from: request)
            // A link answers the bearer's own session: AuthMiddleware checks its proof, once.
            if body.linkIdentity == true { return try await linkIDToken(body.request, request, context) }
            let origin = origin(request, context, dpop: try await dpop.grantBinding(request))
            return try JSONResponse.make(try await oauth.signIn(with: body.request, origin: origin))
        case "pkce":
            let body = try await RequestDecoding.decode(PKCETokenRequest.self, from: request)
            let origin = origin(request, context, dpop: try await dpop.grantBinding(request))
            return try JSONResponse.make(try await oauth.exchangeCode(body, origin: origin))
        default:
            throw AuthError.unsupportedGrantType
        }
    }

    /// `link_identity: true`: the bearer is required and checked as on `/user` (GoTrue's `requireAuthentication`).
    private func linkIDToken(_ body: IDTokenRequest, _ request: Request, _ context: AuthRequestContext) async throws -> Response {
        guard request.headers[.authorization] != nil else {
            throw AuthError.invalidRequest(field: "Authorization", "Linking requires a valid user access token in Authorization")
        }
        return try await authMiddleware.handle(request, context: context) { request, context in
            try JSONResponse.make(try await oauth.link(idToken: body, identity: try context.requireIdentity(), ip: context.clientIP))
        }
    }

    private func updateUser(
        _ identity: AuthenticatedIdentity, _ update: UserUpdate, ip: String?,
        mailing: () async throws -> EmailCodeService.LinkTarget
    ) async throws -> SessionUser {
        let store = sessions.store
        guard var user = try await store.user(id: identity.userID) else { throw AuthError.sessionRevoked }
        let newEmail = try update.email.flatMap { $0.isEmpty ? nil : try SessionService.normalize(email: $0) }
        let changesEmail = newEmail.map { $0 != user.email } ?? false
        if update.password != nil || changesEmail {
            // GoTrue's rule once a second factor is verified (docs/MFA.md): 401, the session stays.
            try await AssuranceGate(store: store).requireAAL2IfEnrolled(
                identity, status: 401, "AAL2 session is required to update email or password when MFA is enabled.")
        }
        // GoTrue's order (internal/api/user.go): an anonymous user's password needs an address with it.
        if user.isAnonymous, update.password?.isEmpty == false, !changesEmail {
            throw AuthError.anonymousPasswordWithoutEmail
        }
        if let password = update.password {
            try sessions.validate(password: password)
            // Also guards a first password on an OAuth-only account: it has no current one, so only a fresh sign-in proves presence.
            // Checked once for both changes: a mailed nonce is spent by the first check.
            try await codes.presence.require(
                identity, user: user, currentPassword: update.currentPassword, nonce: update.nonce, ip: ip)
        }
        if changesEmail, let newEmail {
            user = try await changeEmail(
                identity, user: user, to: newEmail, update, ip: ip, presenceProven: update.password != nil,
                link: try await mailing())
        }
        if let password = update.password {
            let hash = await sessions.hasher.hash(password)
            try await store.changePassword(
                userID: user.id, hash: hash, keeping: identity.sessionID, now: sessions.clock.now, ip: ip)
        }
        user = try await store.mergeUserMetadata(id: user.id, metadata: update.data ?? [:], now: sessions.clock.now)
        return user.sessionUser
    }

    private func origin(_ request: Request, _ context: AuthRequestContext, dpop: String? = nil) -> SessionService.Origin {
        SessionService.Origin(userAgent: request.headers[.userAgent], ip: clientIP(request, context), dpopJKT: dpop)
    }

    /// The client's address, as ``ClientAddressMiddleware`` resolved it.
    private func clientIP(_ request: Request, _ context: AuthRequestContext) -> String? { context.clientIP }

    func limitMailByIP(_ request: Request, _ context: AuthRequestContext) async throws {
        if case .limited(let seconds) = try await mailIPLimiter.attempt(context.clientRateLimitKey) {
            throw AuthError.emailRateLimited(retryAfter: seconds)
        }
    }

    private func limitByIP(_ request: Request, _ context: AuthRequestContext) async throws {
        if case .limited(let seconds) = try await ipLimiter.attempt(context.clientRateLimitKey) { throw AuthError.rateLimited(retryAfter: seconds) }
    }
}

/// `PUT /auth/v1/user` body.
struct UserUpdate: Sendable, Decodable {
    var email: String?
    var password: String?
    /// Proof of presence for a password change when the session signed in too long ago.
    var currentPassword: String?
    /// The code `POST /reauthenticate` mailed: the proof of a person without a password.
    var nonce: String?
    var data: [String: JSONValue]?

    enum CodingKeys: String, CodingKey {
        case email, password, data, nonce
        case currentPassword = "current_password"
    }
}

/// `GET /auth/v1/settings`, in GoTrue's shape: `external` lists `email` and
/// every enabled OAuth provider as `true`.
struct Settings: Sendable, Encodable {
    var providers: [String]
    /// Whether a password sign-up is signed in at once (true) or waits for its address to be confirmed.
    var mailerAutoconfirm: Bool
    /// `external.anonymous_users`, as GoTrue's `/settings` (`internal/api/settings.go`).
    var anonymousUsers = false
    var disableSignup = false
    var phoneAutoconfirm = false
    var smsProvider = ""
    var samlEnabled = false
    /// `--require-dpop` (docs/DPOP.md).
    var dpopRequired = false

    enum CodingKeys: String, CodingKey {
        case external
        case dpopRequired = "dpop_required"
        case dpopAlgorithms = "dpop_signing_alg_values_supported"
        case disableSignup = "disable_signup"
        case mailerAutoconfirm = "mailer_autoconfirm"
        case phoneAutoconfirm = "phone_autoconfirm"
        case smsProvider = "sms_provider"
        case samlEnabled = "saml_enabled"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        var external: [String: Bool] = ["email": true, "phone": false, "anonymous_users": anonymousUsers]
        for provider in providers { external[provider] = true }
        try c.encode(external, forKey: .external)
        try c.encode(disableSignup, forKey: .disableSignup)
        try c.encode(mailerAutoconfirm, forKey: .mailerAutoconfirm)
        try c.encode(phoneAutoconfirm, forKey: .phoneAutoconfirm)
        try c.encode(smsProvider, forKey: .smsProvider)
        try c.encode(samlEnabled, forKey: .samlEnabled)
        try c.encode(["ES256"], forKey: .dpopAlgorithms)
        try c.encode(dpopRequired, forKey: .dpopRequired)
    }
}
