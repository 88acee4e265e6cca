/// A fault the chaos transport injects on one request, at the transport
/// boundary between SessionKit and a live server.
public enum Fault: String, CaseIterable, Sendable, Hashable {
    /// The connection is refused; nothing reaches the server.
    case refused
    /// The server handles the request, then the connection resets mid-response.
    case resetMidResponse
    /// Nothing answers until the request times out; nothing reaches the server.
    case stall
    /// A 500 with the server's error envelope, from a failing replica.
    case internalError
    /// A 502 with an HTML body, from a proxy whose upstream is down.
    case badGateway
    /// A 503 with an HTML body, from a load balancer shedding load.
    case unavailable
    /// A 429 with `Retry-After`.
    case rateLimited
    /// The server answers, but only the first half of the body arrives.
    case truncatedBody
    /// The server answers, but the body arrives garbled.
    case garbledBody
    /// The worst case: the server commits (a rotation, say) and the response is
    /// lost; the client sees a timeout.
    case lostResponse

    /// Whether the request reaches the server before the fault.
    public var reachesServer: Bool {
        switch self {
        case .resetMidResponse, .truncatedBody, .garbledBody, .lostResponse: true
        case .refused, .stall, .internalError, .badGateway, .unavailable, .rateLimited: false
        }
    }
}
