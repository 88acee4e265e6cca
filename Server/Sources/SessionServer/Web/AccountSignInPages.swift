import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SessionCore

/// The ways into `/account` (docs/SERVER.md, "The account page"): an emailed
/// code, each configured OAuth provider (PKCE, landing back on the page), a
/// password, and "forgot your password?" through the recovery code.
///
/// Every form is checked for its origin (no CSRF token exists before a
/// sign-in); every code sent or typed counts against the same limits as the
/// API's (`/otp`, `/recover`, `/verify`): per IP here, per address in
/// ``EmailCodeService``.
struct AccountSignInPages: Sendable {
    let web: WebPages
    let sessions: SessionService
    let codes: EmailCodeService
    let oauth: OAuthService
    /// The token endpoints' per-IP limit.
    let limit: @Sendable (Request, AuthRequestContext) async throws -> Void
    /// The per-IP budget of requests that may send mail.
    let mailLimit: @Sendable (Request, AuthRequestContext) async throws -> Void
    let origin: @Sendable (Request, AuthRequestContext) -> SessionService.Origin

    static let title = "Sign in to your account"
    /// The short-lived cookie that carries the PKCE verifier across the provider's pages.
    static let verifierCookie = "sk_account_pkce"

    /// The sign-in page, with each configured provider.
    func signInPage(error: String? = nil, notice: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        let providers = oauth.configuration.oauthProviders.map { ["name": $0.name, "label": Self.label($0.name)] }
        var context: [String: Any] = ["title": Self.title, "providers": providers, "hasProviders": !providers.isEmpty]
        context["error"] = error
        context["notice"] = notice
        return WebPages.page("account-sign-in", context, status: status)
    }

    func register(on group: RouterGroup<AuthRequestContext>) {
        group.post("sign-in") { request, context in
            guard WebForm.isSameOrigin(request, externalURL: web.externalURL) else { return WebPages.refused(title: Self.title) }
            try await limit(request, context)
            let form = try await WebForm.read(request)
            let user: UserRecord
            do {
                user = try await sessions.verifiedUser(email: form["email"] ?? "", password: form["password"] ?? "")
            } catch let error as AuthError {
                return signInPage(error: error.message, status: .badRequest)
            }
            let from = origin(request, context)
            let (session, _) = try await sessions.store.createSession(
                userID: user.id, userAgent: from.userAgent, ip: from.ip, now: sessions.clock.now,
                refreshTokenTTL: sessions.configuration.refreshTokenTTL, absoluteTTL: AccountPages.lifetime, method: "password")
            return try await open(userID: user.id, sessionID: session.id)
        }
        group.post("code") { request, context in
            guard WebForm.isSameOrigin(request, externalURL: web.externalURL) else { return WebPages.refused(title: Self.title) }
            try await limit(request, context)
            try await mailLimit(request, context)
            let email = try await WebForm.read(request)["email"] ?? ""
            do {
                // No account is created here: the page is for people who have one.
                try await codes.sendSignInCode(to: email, createUser: false, metadata: [:], link: try link(request))
            } catch let error as AuthError {
                return signInPage(error: error.message, status: GoTrueError(error).status)
            }
            return codePage("account-code", email: email)
        }
        group.post("code/verify") { request, context in
            guard WebForm.isSameOrigin(request, externalURL: web.externalURL) else { return WebPages.refused(title: Self.title) }
            try await limit(request, context)
            let form = try await WebForm.read(request)
            let email = form["email"] ?? ""
            do {
                let redeemed = try await codes.redeem(
                    .code(email: email, code: Self.digits(form["code"])), type: .email, origin: origin(request, context),
                    absoluteTTL: AccountPages.lifetime)
                return try await open(userID: redeemed.user.id, sessionID: redeemed.session.id)
            } catch let error as AuthError {
                return codePage("account-code", email: email, error: error.message, status: GoTrueError(error).status)
            }
        }
        group.get("recover") { _, _ in WebPages.page("account-recover", ["title": "Forgot your password?"]) }
        group.post("recover") { request, context in
            guard WebForm.isSameOrigin(request, externalURL: web.externalURL) else { return WebPages.refused(title: Self.title) }
            try await limit(request, context)
            try await mailLimit(request, context)
            let email = try await WebForm.read(request)["email"] ?? ""
            do {
                try await codes.sendPasswordReset(to: email, link: try link(request))
            } catch let error as AuthError {
                return WebPages.page(
                    "account-recover", ["title": "Forgot your password?", "error": error.message], status: GoTrueError(error).status)
            }
            return codePage("account-recover-code", email: email)
        }
        group.post("recover/verify") { request, context in
            guard WebForm.isSameOrigin(request, externalURL: web.externalURL) else { return WebPages.refused(title: Self.title) }
            try await limit(request, context)
            let form = try await WebForm.read(request)
            let email = form["email"] ?? ""
            do {
                let password = form["password"] ?? ""
                // Checked before the code is spent, so a too-short password does not cost the code.
                try sessions.validate(password: password)
                let redeemed = try await codes.redeem(
                    .code(email: email, code: Self.digits(form["code"])), type: .recovery, origin: origin(request, context),
                    absoluteTTL: AccountPages.lifetime)
                let hash = await sessions.hasher.hash(password)
                try await sessions.store.changePassword(
                    userID: redeemed.user.id, hash: hash, keeping: redeemed.session.id, now: sessions.clock.now,
                    ip: origin(request, context).ip)
                return try await open(userID: redeemed.user.id, sessionID: redeemed.session.id, then: "/account?done=password")
            } catch let error as AuthError {
                return codePage("account-recover-code", email: email, error: error.message, status: GoTrueError(error).status)
            }
        }
        group.get("oauth/callback") { request, context in try await finishOAuth(request, context) }
        group.get("oauth/:provider") { request, context in
            try await limit(request, context)
            let verifier = RefreshTokenCodec.generate()
            let root = try OAuthRoutes.publicRoot(externalURL: web.externalURL, authority: request.head.authority)
            let url: URL
            do {
                url = try await oauth.authorize(
                    .init(
                        provider: context.parameters.get("provider"), redirectTo: root + "/account/oauth/callback",
                        codeChallenge: PKCEChallenge.s256(verifier), codeChallengeMethod: "s256", redirectsToOwnPage: true),
                    callbackURL: try OAuthRoutes.callbackURL(externalURL: web.externalURL, authority: request.head.authority))
            } catch let error as AuthError {
                return signInPage(error: error.message, status: GoTrueError(error).status)
            }
            var response = OAuthRoutes.found(url)
            response.headers[.setCookie] = verifierCookie().set(verifier, maxAge: Int(sessions.configuration.oauthStateLifetime))
            return response
        }
    }

    /// The provider's answer, through `/auth/v1/callback`: a one-time code
    /// redeemed with the verifier this browser kept, or the provider's error.
    private func finishOAuth(_ request: Request, _ context: AuthRequestContext) async throws -> Response {
        try await limit(request, context)
        let query = request.uri.queryParameters
        let cookie = verifierCookie()
        var response: Response
        if query.get("error") != nil || query.get("error_description") != nil {
            // Logged, never shown: a link to this page can carry any text (issue 37, item 12).
            context.logger.notice(
                "A provider answered a sign-in with an error",
                metadata: [
                    "error": "\(query.get("error")?.prefix(64) ?? "")",
                    "error_description": "\(query.get("error_description")?.prefix(200) ?? "")",
                ])
            response = signInPage(error: ProviderErrorMessage.message(forCode: query.get("error")), status: .badRequest)
        } else if let code = query.get("code"), let verifier = cookie.value(in: request.headers), !verifier.isEmpty {
            do {
                let redeemed = try await oauth.redeemCode(
                    PKCETokenRequest(authCode: code, codeVerifier: verifier), origin: origin(request, context),
                    absoluteTTL: AccountPages.lifetime)
                response = try await open(userID: redeemed.user.id, sessionID: redeemed.session.id)
            } catch let error as AuthError {
                response = signInPage(error: error.message, status: GoTrueError(error).status)
            }
        } else {
            // No verifier: the flow started in another browser, or its cookie expired.
            response = signInPage(error: "This sign-in was started elsewhere or took too long. Please start again.", status: .badRequest)
        }
        response.headers.append(HTTPField(name: .setCookie, value: cookie.clear()))
        return response
    }

    /// Lax, not Strict: the browser comes back from the provider's site, and a
    /// Strict cookie is not sent on a navigation another site started.
    private func verifierCookie() -> WebCookie {
        WebCookie(name: Self.verifierCookie, path: "/account", secure: web.cookie.secure, sameSite: "Lax")
    }

    /// Signs the browser in to the page on a session row already created.
    private func open(userID: String, sessionID: String, then path: String = "/account") async throws -> Response {
        // A person with a second factor types its code first, the session still aal1 (docs/MFA.md, "The account page").
        if try await AssuranceGate(store: sessions.store).hasVerifiedFactor(userID: userID) {
            return try await AccountFactorPages.openStep(web, userID: userID, sessionID: sessionID)
        }
        return try await web.signIn(
            .init(kind: .account, userID: userID, sessionID: sessionID, csrf: RefreshTokenCodec.generate()),
            lifetime: AccountPages.lifetime, then: path)
    }

    private func codePage(
        _ template: String, email: String, error: String? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        var context: [String: Any] = ["title": "Check your email", "email": email]
        context["error"] = error
        return WebPages.page(template, context, status: status)
    }

    private func link(_ request: Request) throws -> EmailCodeService.LinkTarget {
        .init(root: try OAuthRoutes.publicRoot(externalURL: web.externalURL, authority: request.head.authority), redirectTo: nil)
    }

    /// The code as typed: spaces and dashes dropped.
    static func digits(_ code: String?) -> String { (code ?? "").filter { !$0.isWhitespace && $0 != "-" } }

    /// "Strava" for `strava`.
    static func label(_ provider: String) -> String { provider.prefix(1).uppercased() + provider.dropFirst() }
}
