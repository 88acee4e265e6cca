import Foundation

/// The timing defaults from docs/DESIGN.md, in one place so both halves agree.
///
/// Every value here is a default: configurations take their own.
public enum SessionDefaults {
    /// Access token lifetime issued by the server.
    public static let accessTokenLifetime: TimeInterval = 3600
    /// Refresh token lifetime, sliding on each rotation.
    public static let refreshTokenLifetime: TimeInterval = 30 * 86_400
    /// Absolute cap on a session family, however often it rotates.
    public static let refreshTokenAbsoluteLifetime: TimeInterval = 90 * 86_400
    /// Server tolerance on `exp`, `nbf` and `iat`.
    public static let serverLeeway: TimeInterval = 60
    /// Upper bound of the client's proactive refresh window before expiry.
    public static let proactiveRefreshBuffer: TimeInterval = 300
    /// Window in which a rotated-out refresh token returns its successor.
    public static let refreshReuseGrace: TimeInterval = 10
    /// First step of the transient-failure backoff (full jitter, doubling).
    public static let backoffBase: TimeInterval = 1
    /// Ceiling of the transient-failure backoff.
    public static let backoffCap: TimeInterval = 300
    /// Refused refreshes (a proxy's 401, an unknown 4xx) before the client's
    /// state asks for attention; never sooner than one access-token lifetime.
    public static let attentionAfterRefusals = 5
    /// How long a call made during `restore()` waits for it to finish.
    public static let restoreWait: TimeInterval = 10
    /// How long a refresh waits for another process's cross-process lock
    /// before it refreshes without it.
    public static let lockWait: TimeInterval = 10
    /// Per-request network timeout.
    public static let requestTimeout: TimeInterval = 30
    /// Per-resource network timeout.
    public static let resourceTimeout: TimeInterval = 60
    /// Token endpoint requests per client IP per minute.
    public static let tokenRequestsPerMinutePerIP = 300
    /// Password sign-in attempts per email per minute.
    public static let passwordSignInsPerMinutePerEmail = 30
}
