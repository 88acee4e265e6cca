import SessionKitFaultProxy

/// A network fault one request can meet, injected on real sockets by the
/// `FaultProxy` between SessionKit and a live server.
public enum Fault: String, CaseIterable, Sendable, Hashable {
    /// The connection is refused by the kernel (the proxy's refusing port); nothing reaches the server.
    case refused
    /// The server handles the request; the response is cut off by a TCP reset.
    case resetMidResponse
    /// Nothing answers until the client's request timeout; nothing reaches the server.
    case stall
    /// A 500 with the server's error envelope, from a failing replica.
    case internalError
    /// A 502 with an HTML body, from a proxy whose upstream is down.
    case badGateway
    /// A 503 with an HTML body, from a load balancer shedding load.
    case unavailable
    /// A 429 with `Retry-After`.
    case rateLimited
    /// The server answers; half the body arrives under the full `Content-Length`, then the connection closes.
    case truncatedBody
    /// The server answers; every body byte arrives XOR 0x5A.
    case garbledBody
    /// The worst case: the server commits (a rotation, say) and the response is
    /// lost; the client meets its own request timeout.
    case lostResponse

    // Intermediaries (drawn only in adversarial runs): answers that are not the auth server's.
    /// The connection is reset as soon as the request arrives; nothing reaches the server.
    case resetBeforeForwarding
    /// The server answers; the body arrives in small pieces, slowly but complete.
    case trickleBody
    /// A proxy's or WAF's 401 with an HTML page.
    case unauthorizedHTML
    /// A CDN's or WAF's 403 with an HTML page.
    case forbiddenHTML
    /// An API gateway's 401 `{"message":"Invalid API key"}` (Supabase's after a key rotation).
    case invalidAPIKey
    /// A captive portal's 200 login page.
    case captivePortal
    /// A 302 to a page the server does not have.
    case redirect

    /// The faults of the published configuration (the server's own kinds of failure).
    public static let classic: [Fault] = [
        .refused, .resetMidResponse, .stall, .internalError, .badGateway, .unavailable, .rateLimited, .truncatedBody,
        .garbledBody, .lostResponse,
    ]

    /// Whether the server may have handled the request (a rotation committed)
    /// while its answer does not reach the client whole, or only too slowly.
    var mayLoseACommittedAnswer: Bool {
        switch self {
        case .resetMidResponse, .truncatedBody, .garbledBody, .lostResponse, .trickleBody: true
        default: false
        }
    }

    /// What the proxy does; nil for `refused`, which never reaches the proxy.
    var proxyFault: ProxyFault? {
        switch self {
        case .refused: nil
        case .resetMidResponse: .resetMidResponse
        case .stall: .stall
        case .internalError: .internalServerError
        case .badGateway: .badGateway
        case .unavailable: .serviceUnavailable
        case .rateLimited: .tooManyRequests(retryAfter: 7)
        case .truncatedBody: .truncateBody
        case .garbledBody: .garbleBody
        case .lostResponse: .loseResponse
        case .resetBeforeForwarding: .resetBeforeForwarding
        case .trickleBody: .trickleBody
        case .unauthorizedHTML: .unauthorizedHTML
        case .forbiddenHTML: .forbiddenHTML
        case .invalidAPIKey: .invalidAPIKey
        case .captivePortal: .captivePortal
        case .redirect: .redirect
        }
    }
}
