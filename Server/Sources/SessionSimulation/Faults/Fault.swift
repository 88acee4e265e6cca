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
        }
    }
}
