import NIOHTTP1

/// What the proxy does to one request instead of passing it through.
///
/// A struct with static members rather than an enum, so new faults can be
/// added without breaking a caller's `switch`.
public struct ProxyFault: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        case stall
        case respond(status: Int, contentType: String, body: String, retryAfter: Int?)
        case redirect(location: String)
        case trickleBody
        case resetBeforeForwarding
        case resetMidResponse
        case truncateBody
        case garbleBody
        case loseResponse
        case killUpstreamOnResponseHead
    }

    let kind: Kind
    /// The fault's name: its value in the `x-fault-proxy` header and its key in the statistics.
    public let name: String

    /// Nothing is forwarded and nothing answers; the connection stays open until
    /// the client gives up (its request timeout).
    public static let stall = ProxyFault(kind: .stall, name: "stall")
    /// The connection is reset as soon as the request arrives; nothing is forwarded.
    public static let resetBeforeForwarding = ProxyFault(kind: .resetBeforeForwarding, name: "reset-before-forwarding")
    /// The server handles the request; the status line, headers and half the body
    /// arrive, then the connection is reset (TCP RST).
    public static let resetMidResponse = ProxyFault(kind: .resetMidResponse, name: "reset-mid-response")
    /// The server handles the request; the headers (with the full `Content-Length`)
    /// and half the body arrive, then the connection closes.
    public static let truncateBody = ProxyFault(kind: .truncateBody, name: "truncate-body")
    /// The server handles the request; the full response arrives with every body byte XOR 0x5A.
    public static let garbleBody = ProxyFault(kind: .garbleBody, name: "garble-body")
    /// The worst case: the server handles the request and commits (a rotation,
    /// say); the response is thrown away and the connection stays silent until
    /// the client times out.
    public static let loseResponse = ProxyFault(kind: .loseResponse, name: "lose-response")
    /// The server itself dies at the worst moment: the proxy runs the action
    /// set with ``FaultProxy/setUpstreamKiller(_:)`` (a SIGKILL, say) as soon as
    /// the response head arrives, so the server had committed and its answer is
    /// never delivered; the client's connection is then reset. With no action
    /// set, only the reset happens.
    public static let killUpstreamOnResponseHead = ProxyFault(
        kind: .killUpstreamOnResponseHead, name: "kill-upstream-on-response-head")

    /// A 500 with the gateway's error envelope, from a failing replica; nothing is forwarded.
    public static let internalServerError = ProxyFault.respond(
        status: 500, contentType: "application/json",
        body: #"{"success":false,"error":{"code":"INTERNAL","message":"Something went wrong."}}"#)
    /// A 502 with an HTML body, from a proxy whose upstream is down; nothing is forwarded.
    public static let badGateway = ProxyFault.respond(
        status: 502, contentType: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>")
    /// A 503 with an HTML body, from a load balancer shedding load; nothing is forwarded.
    public static let serviceUnavailable = ProxyFault.respond(
        status: 503, contentType: "text/html", body: "<html><body><h1>503 Service Unavailable</h1></body></html>")

    // MARK: Intermediaries: answers that are not the auth server's (none of them ends a session)

    /// A 401 with an HTML page, as nginx, a WAF or an expired corporate proxy login answers.
    public static let unauthorizedHTML = ProxyFault(
        kind: .respond(
            status: 401, contentType: "text/html",
            body: "<html><head><title>401 Authorization Required</title></head><body><center><h1>401 Authorization Required</h1></center><hr><center>nginx</center></body></html>",
            retryAfter: nil),
        name: "401-html")
    /// A 403 with an HTML page, as a CDN or WAF blocking a request answers.
    public static let forbiddenHTML = ProxyFault(
        kind: .respond(
            status: 403, contentType: "text/html",
            body: "<html><body><h1>403 Forbidden</h1><p>Request blocked.</p></body></html>", retryAfter: nil),
        name: "403-html")
    /// Supabase's API gateway after an anon-key rotation: a 401 whose body has no code.
    public static let invalidAPIKey = ProxyFault(
        kind: .respond(
            status: 401, contentType: "application/json", body: #"{"message":"Invalid API key","hint":"Double check your Supabase `anon` or `service_role` API key."}"#,
            retryAfter: nil),
        name: "invalid-api-key")
    /// A captive portal (hotel, airport Wi-Fi): any request gets its login page with 200.
    public static let captivePortal = ProxyFault(
        kind: .respond(
            status: 200, contentType: "text/html",
            body: "<!DOCTYPE html><html><body><form action=\"/login\"><h1>Welcome to Airport Wi-Fi</h1><button>Connect</button></form></body></html>",
            retryAfter: nil),
        name: "captive-portal")
    /// The server answers; the body arrives in small pieces over about half a
    /// second (a congested mobile link), complete.
    public static let trickleBody = ProxyFault(kind: .trickleBody, name: "trickle-body")
    /// Where ``redirect`` sends the client: the proxy answers it with the portal's page.
    public static let portalPath = "/captive-portal/login"
    /// A 302 to a captive portal's login page on the same host, which the proxy
    /// then serves (200 HTML), as hotel and airport networks do.
    public static let redirect = ProxyFault(kind: .redirect(location: portalPath), name: "302")

    /// The intermediary answers, for tests that go through each.
    public static let intermediaries: [ProxyFault] = [unauthorizedHTML, forbiddenHTML, invalidAPIKey, captivePortal, redirect]

    /// A 429 with `Retry-After` and GoTrue's body; nothing is forwarded.
    public static func tooManyRequests(retryAfter seconds: Int = 7) -> ProxyFault {
        ProxyFault(
            kind: .respond(
                status: 429, contentType: "application/json",
                body: #"{"code":429,"error_code":"over_request_rate_limit","msg":"Request rate limit reached"}"#,
                retryAfter: seconds),
            name: "429")
    }

    /// Answers `status` with `body` itself; nothing is forwarded.
    public static func respond(status: Int, contentType: String, body: String) -> ProxyFault {
        ProxyFault(kind: .respond(status: status, contentType: contentType, body: body, retryAfter: nil), name: String(status))
    }

    /// Every fault with a fixed name, as a header names it.
    public static let named: [String: ProxyFault] = Dictionary(
        uniqueKeysWithValues: [
            stall, resetBeforeForwarding, resetMidResponse, truncateBody, garbleBody, loseResponse,
            internalServerError, badGateway, serviceUnavailable, tooManyRequests(),
        ].map { ($0.name, $0) })

    /// Every fault a `x-fault-proxy` header can name: ``named``, the
    /// intermediaries, the slow body (which succeeds, slowly) and the upstream kill.
    public static let all: [String: ProxyFault] = named.merging(
        (intermediaries + [trickleBody, killUpstreamOnResponseHead]).map { ($0.name, $0) }) { first, _ in first }

    /// Whether the request reaches the server before the fault strikes.
    public var forwards: Bool {
        switch kind {
        case .resetMidResponse, .truncateBody, .garbleBody, .loseResponse, .trickleBody, .killUpstreamOnResponseHead: true
        case .stall, .respond, .redirect, .resetBeforeForwarding: false
        }
    }

    public var description: String { name }
}
