import Hummingbird
import NIOCore

/// What ``AuthMiddleware`` needs from a request context: a place for the identity.
public protocol AuthenticatedRequestContext: RequestContext {
    /// The verified caller, set by ``AuthMiddleware``.
    var identity: AuthenticatedIdentity? { get set }
}

/// The caller of a request that passed ``AuthMiddleware``.
public struct AuthenticatedIdentity: Sendable, Hashable {
    /// The user's id (`sub`).
    public let userID: String
    /// The session the token belongs to, when the issuer sets `session_id`.
    public let sessionID: String?
    /// The verified token.
    public let token: VerifiedAccessToken
    /// The thumbprint of the key whose DPoP proof came with the token, checked by
    /// ``AuthMiddleware`` (docs/DPOP.md); `nil` when no proof was sent.
    public var dpopJKT: String? = nil
}

/// The request context of the auth server's own routes.
public struct AuthRequestContext: AuthenticatedRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: AuthenticatedIdentity?
    /// The socket peer's IP address, when the request came over a socket: a
    /// proxy's, behind one. Only ``ClientAddressMiddleware`` and `/metrics`
    /// (which answers unforwarded local requests) read it; everything else
    /// reads ``clientAddress``.
    public let peerIP: String?
    /// The client's address as ``ClientAddressMiddleware`` resolved it once
    /// for this request (behind a trusted proxy, the forwarded client);
    /// `nil` when the peer is unknown.
    public internal(set) var clientAddress: IPAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.identity = nil
        self.peerIP = source.channel.remoteAddress?.ipAddress
        self.clientAddress = nil
    }

    /// The client's address as text, for sessions and audit entries.
    var clientIP: String? { clientAddress?.description }

    /// The key a per-IP limiter counts this request under (per /64 for IPv6).
    var clientRateLimitKey: String { clientAddress?.rateLimitKey ?? "unknown" }

    /// Bodies above 64 KiB are refused (docs/DESIGN.md, "Bad input").
    public var maxUploadSize: Int { RequestDecoding.maximumBodySize }

    /// The identity set by ``AuthMiddleware``; routes behind it can rely on it.
    func requireIdentity() throws -> AuthenticatedIdentity {
        guard let identity else { throw AuthError.authRequired("no credentials", credentialsSent: false) }
        return identity
    }
}
