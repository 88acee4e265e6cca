import Foundation
import Hummingbird
import SessionCore

/// `GET /auth/v1/user/identities/authorize` and `DELETE /auth/v1/user/identities/{id}`,
/// behind the bearer middleware, as GoTrue routes them (`internal/api/api.go`):
/// authentication first, then the `--manual-linking` switch (404 `manual_linking_disabled` when off).
struct IdentityRoutes: Sendable {
    let oauth: OAuthService
    /// The token endpoints' per-IP limit: each authorize writes a flow row.
    let limit: any RateLimiting

    func register(on group: RouterGroup<AuthRequestContext>) {
        group.get("user/identities/authorize") { request, context in
            let identity = try context.requireIdentity()
            guard oauth.configuration.manualLinking else { throw AuthError.manualLinkingDisabled }
            if case .limited(let seconds) = try await limit.attempt(context.clientRateLimitKey) {
                throw AuthError.rateLimited(retryAfter: seconds)
            }
            let query = request.uri.queryParameters
            let url = try await oauth.authorizeLink(
                .init(
                    provider: query.get("provider"), redirectTo: query.get("redirect_to"),
                    codeChallenge: query.get("code_challenge"), codeChallengeMethod: query.get("code_challenge_method"),
                    scopes: query.get("scopes")),
                identity: identity,
                callbackURL: try OAuthRoutes.callbackURL(
                    externalURL: oauth.configuration.externalURL, authority: request.head.authority))
            // As GoTrue's `LinkIdentity`: JSON when asked (supabase clients always ask), else a 302.
            if query.get("skip_http_redirect") == "true" { return try JSONResponse.make(["url": url.absoluteString]) }
            return OAuthRoutes.found(url)
        }
        group.delete("user/identities/:identity_id") { request, context in
            let identity = try context.requireIdentity()
            let id = context.parameters.get("identity_id") ?? ""
            try await oauth.unlink(identityID: id, identity: identity, ip: context.clientIP)
            // GoTrue answers an empty object.
            return try JSONResponse.make([String: String]())
        }
    }
}
