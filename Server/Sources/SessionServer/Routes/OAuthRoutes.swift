import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// `GET /auth/v1/authorize` and `GET /auth/v1/callback`: the browser legs of
/// the OAuth flow. Both answer with a 302; `/authorize` answers JSON
/// (`{"url": …}`) instead when asked with `skip_http_redirect=true`, as GoTrue does.
struct OAuthRoutes: Sendable {
    let oauth: OAuthService
    let externalURL: URL?
    /// The token endpoints' per-IP limit: each `/authorize` writes a flow row.
    let limit: @Sendable (Request, AuthRequestContext) async throws -> Void

    func register(on group: RouterGroup<AuthRequestContext>) {
        group.get("authorize") { request, context in
            try await limit(request, context)
            let query = request.uri.queryParameters
            let url = try await oauth.authorize(
                .init(
                    provider: query.get("provider"), redirectTo: query.get("redirect_to"),
                    codeChallenge: query.get("code_challenge"), codeChallengeMethod: query.get("code_challenge_method"),
                    scopes: query.get("scopes")),
                callbackURL: try callbackURL(request))
            if query.get("skip_http_redirect") == "true" { return try JSONResponse.make(["url": url.absoluteString]) }
            return Self.found(url)
        }
        group.get("callback") { request, _ in
            let query = request.uri.queryParameters
            let url = try await oauth.callback(
                .init(
                    state: query.get("state"), code: query.get("code"), error: query.get("error"),
                    errorDescription: query.get("error_description")),
                callbackURL: try callbackURL(request))
            return Self.found(url)
        }
    }

    /// The `redirect_uri` given to the provider; the same value must go with
    /// the code exchange, so both legs compute it the same way.
    ///
    /// Without `--external-url` it comes from the `Host` header, which the
    /// caller writes: only a loopback host is taken from there (a developer's
    /// machine), so nobody can have the provider send codes to a host of their choosing.
    private func callbackURL(_ request: Request) throws -> String {
        try Self.callbackURL(externalURL: externalURL, authority: request.head.authority)
    }

    static func callbackURL(externalURL: URL?, authority: String?) throws -> String {
        try publicRoot(externalURL: externalURL, authority: authority) + "/auth/v1/callback"
    }

    /// This server's public root, without a trailing slash: `--external-url`,
    /// else `http://` and the `Host` header when that names a loopback host.
    ///
    /// The `Host` header is written by the caller: taken from anywhere else,
    /// it would let anyone have OAuth codes or email links point at a host of
    /// their choosing.
    static func publicRoot(externalURL: URL?, authority: String?) throws -> String {
        if let externalURL {
            let text = externalURL.absoluteString
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        guard let authority, !authority.isEmpty,
            authority.allSatisfy({ $0.isLetter || $0.isNumber || ".-:[]".contains($0) })
        else {
            throw AuthError.invalidRequest(field: "Host", "The Host header is missing or not valid.")
        }
        guard Self.isLoopback(authority: authority) else {
            throw AuthError.invalidRequest(
                field: "Host",
                "This server builds OAuth callback URLs and email links from the Host header only on loopback; start it with --external-url set to its public URL.")
        }
        return "http://\(authority)"
    }

    /// `127.0.0.1`, `[::1]` or `localhost`, with or without a port.
    static func isLoopback(authority: String) -> Bool {
        let host: Substring
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            host = authority[...end]
        } else {
            host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        return RedirectAllowList.loopbackHosts.contains(host.lowercased())
    }

    /// A redirect that no cache or referrer keeps: the URL may hold a one-time code.
    static func found(_ url: URL) -> Response { redirect(.found, to: url) }

    /// The answer to a form post that sends the browser on with a GET.
    static func seeOther(_ url: URL) -> Response { redirect(.seeOther, to: url) }

    private static func redirect(_ status: HTTPResponse.Status, to url: URL) -> Response {
        Response(
            status: status,
            headers: [.location: url.absoluteString, .cacheControl: "no-store", HTTPField.Name("Referrer-Policy")!: "no-referrer"])
    }
}
