import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// What the account page and the admin console share: rendering, the
/// browser's session, and the CSRF check of every form.
struct WebPages: Sendable {
    let store: AuthStore
    let clock: any SessionClock
    let cookie: WebCookie
    /// This server's public root, when configured: forms must come from exactly its origin.
    var externalURL: URL? = nil

    /// A page, never cached, never framed, running no script.
    static func page(_ template: String, _ context: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                // same-origin, not no-referrer: under no-referrer browsers send
                // `Origin: null` with the pages' own forms, and the Origin check
                // refused every one of them (found by the browser tests).
                HTTPField.Name("Referrer-Policy")!: "same-origin",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
                HTTPField.Name("Content-Security-Policy")!:
                    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: WebTemplates.render(template, context))))
    }

    /// After a form: back to a page with a GET (so a reload posts nothing).
    static func seeOther(_ path: String, setCookie: String? = nil) -> Response {
        var headers: HTTPFields = [.location: path, .cacheControl: "no-store"]
        if let setCookie { headers[.setCookie] = setCookie }
        return Response(status: .seeOther, headers: headers)
    }

    /// The signed-in browser of `kind`, if the cookie names one.
    func webSession(_ request: Request, kind: AuthStore.WebSession.Kind) async throws -> AuthStore.WebSession? {
        guard let token = cookie.value(in: request.headers),
            let web = try await store.webSession(tokenHash: SHA256Hex.of(token), now: clock.now), web.kind == kind
        else { return nil }
        return web
    }

    /// Signs the browser in: a random cookie, its hash stored with a CSRF token.
    func signIn(_ web: AuthStore.WebSession, lifetime: TimeInterval, then path: String) async throws -> Response {
        let token = RefreshTokenCodec.generate()
        try await store.createWebSession(tokenHash: SHA256Hex.of(token), web, now: clock.now, lifetime: lifetime)
        return Self.seeOther(path, setCookie: cookie.set(token, maxAge: Int(lifetime)))
    }

    func signOut(_ request: Request, then path: String) async throws -> Response {
        if let token = cookie.value(in: request.headers) { try await store.deleteWebSession(tokenHash: SHA256Hex.of(token)) }
        return Self.seeOther(path, setCookie: cookie.clear())
    }

    /// The form of a signed-in browser, or `nil` when the post is not one
    /// (no session, a CSRF token that does not match, another origin).
    func postedForm(_ request: Request, kind: AuthStore.WebSession.Kind) async throws
        -> (web: AuthStore.WebSession, form: WebForm)?
    {
        guard WebForm.isSameOrigin(request, externalURL: externalURL), let web = try await webSession(request, kind: kind)
        else { return nil }
        let form = try await WebForm.read(request)
        guard let csrf = form["csrf"], SHA256Hex.constantTimeEquals(csrf, web.csrf) else { return nil }
        return (web, form)
    }

    /// The answer to a post that is not a signed-in browser's own.
    static func refused(title: String) -> Response {
        page(
            "message",
            ["title": title, "error": "This form could not be accepted: sign in again on this page, then retry."],
            status: .forbidden)
    }

    static func date(_ date: Date?) -> String {
        date.map { WireCoding.formatDate($0).replacingOccurrences(of: "T", with: " ").prefix(16) + " UTC" } ?? "—"
    }

    /// "Chrome on Android"-style text for a user agent; an app's own agent
    /// (`ExamplePhone/1.0 (Pixel 8)`) as it is, cut at a word.
    static func device(_ userAgent: String?) -> String {
        guard let userAgent, !userAgent.isEmpty else { return "Unknown device" }
        let systems = [("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Macintosh", "Mac"), ("Windows", "Windows"),
            ("CrOS", "ChromeOS"), ("Linux", "Linux")]
        let browsers = [("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari")]
        if userAgent.hasPrefix("Mozilla/"), let system = systems.first(where: { userAgent.contains($0.0) })?.1 {
            let browser = browsers.first(where: { userAgent.contains($0.0) })?.1 ?? "A browser"
            return "\(browser) on \(system)" + (userAgent.contains("Headless") ? " (headless)" : "")
        }
        guard userAgent.count > 60 else { return userAgent }
        let cut = userAgent.prefix(60)
        return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "…"
    }
}
