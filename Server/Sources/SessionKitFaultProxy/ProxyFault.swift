import NIOHTTP1

/// What the proxy does to one request instead of passing it through.
///
/// A struct with static members rather than an enum, so new faults can be
/// added without breaking a caller's `switch`.
public struct ProxyFault: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        case stall
        case respond(status: Int, contentType: String, body: String, retryAfter: Int?)
        case resetBeforeForwarding
        case resetMidResponse
        case truncateBody
        case garbleBody
        case loseResponse
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

    /// Whether the request reaches the server before the fault strikes.
    public var forwards: Bool {
        switch kind {
        case .resetMidResponse, .truncateBody, .garbleBody, .loseResponse: true
        case .stall, .respond, .resetBeforeForwarding: false
        }
    }

    public var description: String { name }
}
