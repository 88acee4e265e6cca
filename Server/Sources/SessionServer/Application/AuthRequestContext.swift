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
}

/// The request context of the auth server's own routes.
public struct AuthRequestContext: AuthenticatedRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: AuthenticatedIdentity?
    /// The peer's IP address, when the request came over a socket.
    public let remoteIP: String?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.identity = nil
        self.remoteIP = source.channel.remoteAddress?.ipAddress
    }

    /// Bodies above 64 KiB are refused (docs/DESIGN.md, "Bad input").
    public var maxUploadSize: Int { RequestDecoding.maximumBodySize }

    /// The identity set by ``AuthMiddleware``; routes behind it can rely on it.
    func requireIdentity() throws -> AuthenticatedIdentity {
        guard let identity else { throw AuthError.authRequired("no credentials", credentialsSent: false) }
        return identity
    }
}
