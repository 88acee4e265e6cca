import Foundation
import SessionCore

/// Fixed-window counters in the database, shared by every replica on it
/// (PostgreSQL): a client cannot multiply its limit by the number of
/// servers behind the load balancer.
///
/// One upsert per request, on one row per key (O(1) work); the process holds
/// nothing, and the pruning pass deletes windows that ended, each by its own
/// limiter's window (the row names its limiter, ``RateLimitRule``). Keys are
/// stored as SHA-256 of the limiter's name and the key, so the table holds
/// no address or email.
public struct SharedRateLimiter: RateLimiting {
    let store: AuthStore
    /// Keeps limiters' counts apart in the one table (`token-ip`, `sign-in-email`, …).
    let name: String
    let limit: Int
    let window: TimeInterval
    let clock: any SessionClock

    public func attempt(_ key: String) async throws -> RateLimitDecision {
        let stored = SHA256Hex.of(name + "\u{0}" + key)
        let now = clock.now
        let (start, count) = try await store.countRateLimited(key: stored, limiter: name, window: window, now: now)
        guard count > limit else { return .allowed }
        let remaining = window - now.timeIntervalSince(start)
        return .limited(retryAfter: max(1, Int(remaining.rounded(.up))))
    }
}
