/// Counts requests per key (a client IP, an email, a user) in fixed windows.
///
/// On PostgreSQL every replica counts in one table (``SharedRateLimiter``),
/// so a limit holds across the fleet; on SQLite, a single-server database,
/// each process counts in memory (``RateLimiter``).
public protocol RateLimiting: Sendable {
    /// Counts one request for `key` and says whether it may go on.
    func attempt(_ key: String) async throws -> RateLimitDecision
}

/// The answer for one request.
public enum RateLimitDecision: Sendable, Equatable {
    case allowed
    /// Over the limit; retry after this many seconds.
    case limited(retryAfter: Int)
}
