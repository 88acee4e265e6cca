import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// `POST /otp`, `POST /recover`, `POST /verify` and the email link's
/// `GET /verify` (docs/EMAIL.md).
struct EmailRoutes: Sendable {
    let codes: EmailCodeService
    let externalURL: URL?
    let redirects: RedirectAllowList
    /// The token endpoints' per-IP limit: each request may send mail or guess a code.
    let limit: @Sendable (Request, AuthRequestContext) async throws -> Void
    /// The per-IP budget of requests that may send mail (issue 29, item 5).
    let mailLimit: @Sendable (Request, AuthRequestContext) async throws -> Void
    let origin: @Sendable (Request, AuthRequestContext) -> SessionService.Origin
    /// The request's own valid access token, if it carries one (EmailRoutes+EmailChange.swift).
    var bearer: @Sendable (Request) async throws -> AuthenticatedIdentity? = { _ in nil }
    /// The request's DPoP binding for a session it is answered (docs/DPOP.md), checked before the code is spent.
    var binding: @Sendable (Request) async throws -> String? = { _ in nil }

    func register(on group: RouterGroup<AuthRequestContext>) {
        group.post("otp") { request, context in
            try await limit(request, context)
            try await mailLimit(request, context)
            let body = try await RequestDecoding.decode(OTPBody.self, from: request)
            guard let email = body.email else {
                if body.phone != nil {
                    throw AuthError.invalidRequest(field: "phone", "Phone sign-in is not supported by this server; send email.")
                }
                throw AuthError.invalidRequest(field: "email", "email is required.")
            }
            try await codes.sendSignInCode(
                to: email, createUser: body.createUser ?? true, metadata: body.data ?? [:], link: try link(request))
            return try JSONResponse.make([String: String]())
        }
        group.post("recover") { request, context in
            try await limit(request, context)
            try await mailLimit(request, context)
            let body = try await RequestDecoding.decode(PasswordResetRequest.self, from: request)
            try await codes.sendPasswordReset(to: body.email, link: try link(request))
            return try JSONResponse.make([String: String]())
        }
        group.post("verify") { request, context in
            try await limit(request, context)
            if request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
                return try await confirmLink(request, context)
            }
            let body = try await RequestDecoding.decode(VerifyRequest.self, from: request)
            if body.type == "email_change" { return try await verifyEmailChange(body, request, context) }
            let type = try VerifyType(parsing: body.type)
            var origin = origin(request, context)
            origin.dpopJKT = try await binding(request)
            return try JSONResponse.make(try await codes.verify(Self.lookup(body), type: type, origin: origin))
        }
        registerResend(on: group)
        group.get("verify") { request, _ in
            let query = request.uri.queryParameters
            if query.get("type") == "email_change" {
                return EmailChangeLinkPage.confirm(token: query.get("token"), redirectTo: query.get("redirect_to").flatMap(allowed))
            }
            return EmailLinkPage.confirm(
                token: query.get("token"), type: query.get("type"), redirectTo: query.get("redirect_to").flatMap(allowed))
        }
    }

    /// The form on the link's page, posted by the person: only now is the
    /// link used. Mail scanners fetch links (GET) but do not submit forms,
    /// so they no longer burn a link before its owner opens it.
    ///
    /// Only from this server's page: a form posted by another site would sign
    /// the visitor into whatever account the other site holds a link for
    /// (login CSRF), so a foreign or `null` Origin, or a cross-site fetch, is refused.
    private func confirmLink(_ request: Request, _ context: AuthRequestContext) async throws -> Response {
        let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]?.lowercased()
        guard WebForm.isSameOrigin(request, externalURL: externalURL), site != "cross-site", site != "same-site" else {
            return EmailLinkPage.refusedCrossSite()
        }
        let form = try await WebForm.read(request)
        func field(_ name: String) -> String? { form[name] }
        if field("type") == "email_change" { return try await confirmEmailChangeLink(form, request, context) }
        guard let target = field("redirect_to").flatMap(allowed), let targetURL = URL(string: target) else {
            return EmailLinkPage.confirm(token: field("token"), type: field("type"), redirectTo: nil)
        }
        do {
            let type = try VerifyType(parsing: field("type"))
            let session = try await codes.verify(.link(hash: field("token") ?? ""), type: type, origin: origin(request, context))
            return OAuthRoutes.seeOther(Self.fragment(targetURL, Self.items(session, type: type)))
        } catch let error as AuthError where error == .emailCodeInvalid {
            return OAuthRoutes.seeOther(
                Self.fragment(targetURL, [
                    ("error", "access_denied"), ("error_code", GoTrueErrorCode.otpExpired.rawValue),
                    ("error_description", "Email link is invalid or has expired"),
                ]))
        }
    }

    func allowed(_ redirect: String) -> String? { redirects.allows(redirect) ? redirect : nil }

    /// What `/verify` presents: the link's `token_hash`, or the address and its code.
    static func lookup(_ body: VerifyRequest) throws -> AuthStore.OneTimeTokenLookup {
        if let hash = body.tokenHash { return .link(hash: hash) }
        if let email = body.email, let token = body.token { return .code(email: email, code: token) }
        throw AuthError.invalidRequest(field: "token", "Send email and token (the code), or token_hash (the link's token).")
    }

    /// Where a mailed link leads: this server's root and an allowed `redirect_to` (GoTrue's query parameter).
    func link(_ request: Request) throws -> EmailCodeService.LinkTarget {
        let root = try OAuthRoutes.publicRoot(externalURL: externalURL, authority: request.head.authority)
        guard let redirect = request.uri.queryParameters.get("redirect_to"), !redirect.isEmpty else {
            return .init(root: root, redirectTo: nil)
        }
        guard redirects.allows(redirect) else {
            throw AuthError.invalidRequest(
                field: "redirect_to",
                "redirect_to '\(redirect.prefix(200))' is not in this server's redirect allow-list (AUTH_SERVER_REDIRECT_ALLOW_LIST).")
        }
        return .init(root: root, redirectTo: redirect)
    }

    /// GoTrue's implicit-flow answer: the session in the redirect's fragment,
    /// which browsers never send to a server.
    static func items(_ session: TokenResponse, type: VerifyType) -> [(String, String)] {
        [
            ("access_token", session.accessToken), ("expires_at", String(session.expiresAt ?? 0)),
            ("expires_in", String(session.expiresIn)), ("refresh_token", session.refreshToken),
            ("token_type", "bearer"), ("type", type.rawValue),
        ]
    }

    static func fragment(_ url: URL, _ items: [(String, String)]) -> URL {
        var components = URLComponents()
        components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
        return URL(string: url.absoluteString + "#" + (components.percentEncodedQuery ?? "")) ?? url
    }
}

/// `POST /otp` body: GoTrue's, where `phone` is refused with a clear message.
struct OTPBody: Sendable, Decodable {
    var email: String?
    var phone: String?
    var createUser: Bool?
    var data: [String: JSONValue]?

    enum CodingKeys: String, CodingKey {
        case email, phone, data
        case createUser = "create_user"
    }
}
