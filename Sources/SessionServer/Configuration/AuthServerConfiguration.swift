import Foundation
import SessionCore

/// Everything `auth-server serve` and the tests can tune.
///
/// Defaults come from ``SessionDefaults`` (DESIGN.md's timing table), so a
/// configuration built with no arguments is the production one.
public struct AuthServerConfiguration: Sendable {
    /// Interface to bind.
    public var host: String
    /// Port to bind; 0 picks a free one.
    public var port: Int
    /// Where sessions live: an SQLite file (default), memory, or PostgreSQL.
    public var database: DatabaseLocation
    /// Lifetime of access tokens, in seconds.
    public var accessTokenTTL: TimeInterval
    /// Lifetime of a refresh token, sliding on each rotation.
    public var refreshTokenTTL: TimeInterval
    /// Absolute cap on a session, however often it rotates.
    public var sessionAbsoluteTTL: TimeInterval
    /// Window in which a rotated-out refresh token gets its successor back.
    public var refreshGrace: TimeInterval
    /// Clock-skew tolerance on `exp`, `nbf` and `iat`.
    public var leeway: TimeInterval
    /// `iss` of issued tokens, checked on verification.
    public var issuer: String
    /// `aud` of issued tokens, checked on verification.
    public var audience: String
    /// bcrypt cost; 10 in production, tests lower it to stay fast.
    public var bcryptCost: UInt8
    /// Shortest password accepted at sign-up.
    public var minimumPasswordLength: Int
    /// Token-endpoint requests per client IP per minute.
    public var tokenRequestsPerMinutePerIP: Int
    /// Password sign-ins per email per minute.
    public var passwordSignInsPerMinutePerEmail: Int
    /// Gateway (`/v1`) requests per signed-in user per minute.
    public var gatewayRequestsPerMinutePerUser: Int
    /// Use the first `X-Forwarded-For` address as the client IP (only behind a trusted proxy).
    public var trustForwardedFor: Bool
    /// How often the pruning service deletes expired refresh tokens, in seconds.
    public var pruneInterval: TimeInterval
    /// The source of time for every expiry decision.
    public var clock: any SessionClock

    /// Creates a configuration; every argument defaults to DESIGN.md's value.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: DatabaseLocation = .sqlite(path: "./data/auth.sqlite"),
        accessTokenTTL: TimeInterval = SessionDefaults.accessTokenLifetime,
        refreshTokenTTL: TimeInterval = SessionDefaults.refreshTokenLifetime,
        sessionAbsoluteTTL: TimeInterval = SessionDefaults.refreshTokenAbsoluteLifetime,
        refreshGrace: TimeInterval = SessionDefaults.refreshReuseGrace,
        leeway: TimeInterval = SessionDefaults.serverLeeway,
        issuer: String = "sessionkit",
        audience: String = "authenticated",
        bcryptCost: UInt8 = 10,
        minimumPasswordLength: Int = 6,
        tokenRequestsPerMinutePerIP: Int = SessionDefaults.tokenRequestsPerMinutePerIP,
        passwordSignInsPerMinutePerEmail: Int = SessionDefaults.passwordSignInsPerMinutePerEmail,
        gatewayRequestsPerMinutePerUser: Int = 600,
        trustForwardedFor: Bool = false,
        pruneInterval: TimeInterval = 3600,
        clock: any SessionClock = SystemClock()
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.accessTokenTTL = accessTokenTTL
        self.refreshTokenTTL = refreshTokenTTL
        self.sessionAbsoluteTTL = sessionAbsoluteTTL
        self.refreshGrace = refreshGrace
        self.leeway = leeway
        self.issuer = issuer
        self.audience = audience
        self.bcryptCost = bcryptCost
        self.minimumPasswordLength = minimumPasswordLength
        self.tokenRequestsPerMinutePerIP = tokenRequestsPerMinutePerIP
        self.passwordSignInsPerMinutePerEmail = passwordSignInsPerMinutePerEmail
        self.gatewayRequestsPerMinutePerUser = gatewayRequestsPerMinutePerUser
        self.trustForwardedFor = trustForwardedFor
        self.pruneInterval = pruneInterval
        self.clock = clock
    }
}
