import Foundation
import Logging
import SessionCore

/// The OAuth authorization-code flow with PKCE, as GoTrue runs it:
/// `/authorize` → provider → `/callback` → app redirect with a one-time
/// `code` → `grant_type=pkce`.
///
/// The `state` sent to the provider is an opaque 256-bit random value whose
/// SHA-256 keys a flow row: it expires (``AuthServerConfiguration/oauthStateLifetime``)
/// and is marked used on the first callback, so a replayed callback fails.
/// Provider tokens are neither stored nor passed on: the server needs them
/// only once, to learn who the person is, and keeping a third party's
/// long-lived credential would make this database worth stealing.
struct OAuthService: Sendable {
    let configuration: AuthServerConfiguration
    let sessions: SessionService
    let exchange: ProviderCodeExchange
    let logger: Logger
    /// Sign in with Apple by ID token, when configured.
    var apple: AppleIDTokenVerifier? = nil

    var store: AuthStore { sessions.store }
    var clock: any SessionClock { configuration.clock }

    /// What `/authorize` was asked.
    struct AuthorizeRequest: Sendable {
        var provider: String?
        var redirectTo: String?
        var codeChallenge: String?
        var codeChallengeMethod: String?
        var scopes: String?
        /// True when this server built `redirectTo` itself (the account page's
        /// own callback): no allow-list entry is needed for it.
        var redirectsToOwnPage = false
        /// Set by `GET /user/identities/authorize`: the callback links instead of signing in.
        var linking: AuthStore.LinkTarget? = nil
    }

    /// Starts a flow and returns the provider URL to send the person to.
    ///
    /// - Throws: ``AuthError`` naming the parameter at fault; nothing is redirected
    ///   to a `redirect_to` that is not allowed.
    func authorize(_ request: AuthorizeRequest, callbackURL: String) async throws -> URL {
        guard let name = request.provider, !name.isEmpty else {
            throw AuthError.invalidRequest(field: "provider", "provider is required (for example provider=strava).")
        }
        guard let provider = configuration.oauthProvider(named: name) else { throw AuthError.providerDisabled(name) }
        guard let redirectTo = request.redirectTo, !redirectTo.isEmpty else {
            throw AuthError.invalidRequest(field: "redirect_to", "redirect_to is required.")
        }
        guard request.redirectsToOwnPage || configuration.redirectAllowList.allows(redirectTo) else {
            throw AuthError.invalidRequest(
                field: "redirect_to",
                "redirect_to '\(redirectTo.prefix(200))' is not in this server's redirect allow-list (AUTH_SERVER_REDIRECT_ALLOW_LIST).")
        }
        guard let challenge = request.codeChallenge, !challenge.isEmpty else {
            throw AuthError.invalidRequest(
                field: "code_challenge", "code_challenge is required: this server supports only the PKCE flow.")
        }
        guard PKCEChallenge.isWellFormed(challenge) else {
            throw AuthError.invalidRequest(field: "code_challenge", "code_challenge must be 43 to 128 base64url characters.")
        }
        guard request.codeChallengeMethod?.lowercased() == "s256" else {
            throw AuthError.invalidRequest(field: "code_challenge_method", "code_challenge_method must be s256.")
        }
        let state = RefreshTokenCodec.generate()
        try await store.createOAuthFlow(
            stateHash: RefreshTokenCodec.hash(state), provider: provider.name, redirectTo: redirectTo,
            codeChallenge: challenge, method: "s256", now: clock.now, lifetime: configuration.oauthStateLifetime,
            linking: request.linking)

        let scopes = request.scopes.map { $0.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) } ?? provider.scopes
        var components = URLComponents(url: provider.authorizeURL, resolvingAgainstBaseURL: false)
        var items = components?.queryItems ?? []
        items += [
            URLQueryItem(name: "client_id", value: provider.clientID),
            URLQueryItem(name: "redirect_uri", value: callbackURL),
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "state", value: state),
        ]
        if !scopes.isEmpty { items.append(URLQueryItem(name: "scope", value: scopes.joined(separator: provider.scopeSeparator))) }
        items += provider.authorizeParameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        components?.percentEncodedQuery = items.map {
            "\($0.name)=\(($0.value ?? "").addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        guard let url = components?.url else { throw AuthError.internalFailure }
        logger.info("OAuth flow started", metadata: ["provider": "\(provider.name)"])
        return url
    }

    /// What the provider sent to `/callback`.
    struct CallbackRequest: Sendable {
        var state: String?
        var code: String?
        var error: String?
        var errorDescription: String?
    }

    /// Finishes the provider leg; returns where to send the person (the app's
    /// `redirect_to` with `code`, or with `error` and `error_description`).
    ///
    /// - Throws: ``AuthError/badOAuthState`` only when the state is unknown,
    ///   since then there is no trusted place to redirect to.
    func callback(_ request: CallbackRequest, callbackURL: String) async throws -> URL {
        guard let state = request.state, !state.isEmpty, state.utf8.count <= 256 else { throw AuthError.badOAuthState }
        let now = clock.now
        let flow: OAuthFlowRecord
        switch try await store.useOAuthState(hash: RefreshTokenCodec.hash(state), now: now) {
        case .notFound:
            throw AuthError.badOAuthState
        case .alreadyUsed(let used):
            logger.notice("A used OAuth state came back (replay)", metadata: ["provider": "\(used.provider)"])
            return try redirect(used, error: .stateUsed)
        case .expired(let expired):
            return try redirect(expired, error: .stateExpired)
        case .valid(let valid):
            flow = valid
        }
        if let error = request.error, !error.isEmpty {
            logger.info("The provider returned an error", metadata: ["provider": "\(flow.provider)", "error": "\(error.prefix(40))"])
            return try redirect(
                flow, error: error == "access_denied" ? .denied(request.errorDescription) : .provider(error, request.errorDescription))
        }
        guard let code = request.code, !code.isEmpty, code.utf8.count <= 2048 else { return try redirect(flow, error: .missingCode) }
        guard let provider = configuration.oauthProvider(named: flow.provider) else {
            return try redirect(flow, error: .provider("server_error", "The provider '\(flow.provider)' is no longer enabled."))
        }
        let account: ProviderAccount
        do throws(OAuthRedirectError) {
            account = try await exchange.account(provider: provider, code: code, redirectURI: callbackURL)
        } catch {
            return try redirect(flow, error: error)
        }
        if flow.isLink { return try await finishLink(flow, provider: provider.name, account: account) }
        do {
            let user = try await findOrCreateUser(provider: provider.name, account: account)
            let authCode = RefreshTokenCodec.generate()
            try await store.issueOAuthCode(
                flowID: flow.id, userID: user.id, codeHash: RefreshTokenCodec.hash(authCode),
                expiresAt: clock.now.addingTimeInterval(configuration.oauthCodeLifetime))
            logger.info("OAuth callback accepted", metadata: ["provider": "\(provider.name)", "user": "\(user.id)"])
            return try redirect(flow, items: [URLQueryItem(name: "code", value: authCode)])
        } catch {
            logger.error("The OAuth sign-in could not be recorded", metadata: ["error.type": "\(type(of: error))"])
            return try redirect(
                flow,
                error: OAuthRedirectError(
                    error: "server_error", errorCode: .unexpectedFailure,
                    description: "The sign-in could not be completed on our side. Please try again."))
        }
    }

    /// Exchanges a one-time code and its PKCE verifier for a session, once; a
    /// link flow's code answers for the session that started the link.
    func exchangeCode(_ body: PKCETokenRequest, origin: SessionService.Origin) async throws -> TokenResponse {
        let redeemed = try await redeemCode(
            body, origin: origin, absoluteTTL: configuration.sessionAbsoluteTTL, linkSwap: sessions.policy.keyEncryptionKey)
        return try await sessions.tokenResponse(
            user: redeemed.user, session: redeemed.session, refreshToken: redeemed.refreshToken, binding: origin.dpopJKT)
    }

    /// Redeems a one-time code for a new session row, once (the account page
    /// keeps the row and gives the browser a cookie instead of tokens).
    ///
    /// - Parameter linkSwap: seals a link flow's swapped refresh token; `nil` refuses link codes.
    func redeemCode(
        _ body: PKCETokenRequest, origin: SessionService.Origin, absoluteTTL: TimeInterval,
        linkSwap: KeyEncryptionKey? = nil
    ) async throws -> AuthStore.RedeemedCode {
        guard !body.authCode.isEmpty, !body.codeVerifier.isEmpty else {
            throw AuthError.invalidRequest(
                field: body.authCode.isEmpty ? "auth_code" : "code_verifier",
                "invalid request: both auth code and code verifier should be non-empty")
        }
        guard body.authCode.utf8.count <= 256 else { throw AuthError.flowStateNotFound }
        // As GoTrue: the code is looked up first (an unknown code is `flow_state_not_found`
        // whatever the verifier), and a malformed verifier simply does not match.
        let verifier = body.codeVerifier
        return try await store.redeemOAuthCode(
            hash: RefreshTokenCodec.hash(body.authCode), now: clock.now, session: origin,
            refreshTokenTTL: configuration.refreshTokenTTL, absoluteTTL: absoluteTTL, linkSwap: linkSwap
        ) { flow in
            PKCEChallenge.isWellFormed(verifier) && PKCEChallenge.verify(verifier: verifier, challenge: flow.codeChallenge)
        }
    }

    func findOrCreateUser(provider: String, account: ProviderAccount) async throws -> UserRecord {
        do {
            return try await store.findOrCreateUser(provider: provider, account: account, now: clock.now)
        } catch is AuthStore.IdentityRace {
            // Another callback linked the same account a moment ago: use its user.
            return try await store.findOrCreateUser(provider: provider, account: account, now: clock.now)
        }
    }

    func redirect(_ flow: OAuthFlowRecord, error: OAuthRedirectError) throws -> URL {
        try redirect(
            flow,
            items: [
                URLQueryItem(name: "error", value: error.error),
                URLQueryItem(name: "error_code", value: error.errorCode.rawValue),
                URLQueryItem(name: "error_description", value: error.description),
            ])
    }

    /// `redirect_to` with `items` added to its query (its own query kept).
    func redirect(_ flow: OAuthFlowRecord, items: [URLQueryItem]) throws -> URL {
        guard var components = URLComponents(string: flow.redirectTo) else { throw AuthError.internalFailure }
        // Strict encoding (only unreserved characters stay bare): `queryItems`
        // would leave `&`, `=` and `+` in a provider's error text unescaped.
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let added = items.map { "\($0.name)=\(($0.value ?? "").addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
        components.percentEncodedQuery = ([components.percentEncodedQuery].compactMap { $0 }.filter { !$0.isEmpty } + added)
            .joined(separator: "&")
        guard let url = components.url else { throw AuthError.internalFailure }
        return url
    }
}
