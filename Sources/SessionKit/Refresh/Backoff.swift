import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// Full-jitter exponential backoff (AWS architecture blog's "full jitter"):
/// the n-th retry waits a random time in `0 ..< min(cap, base * 2^(n-1))`,
/// but never less than the server's `Retry-After`.
public struct Backoff: Sendable, Hashable {
    public var base: TimeInterval
    public var cap: TimeInterval

    public init(base: TimeInterval = SessionDefaults.backoffBase, cap: TimeInterval = SessionDefaults.backoffCap) {
        self.base = max(0, base)
        self.cap = max(self.base, cap)
    }

    /// The ceiling of the `attempt`-th retry (1-based), before jitter.
    public func ceiling(attempt: Int) -> TimeInterval {
        let exponent = Double(min(max(attempt, 1) - 1, 62))
        return min(cap, base * pow(2, exponent))
    }

    /// The delay before the `attempt`-th retry.
    ///
    /// - Parameters:
    ///   - attempt: the retry's number, from 1.
    ///   - jitter: a value in `0..<1`.
    ///   - retryAfter: the server's `Retry-After`, honoured as a floor (capped at `cap`).
    public func delay(attempt: Int, jitter: Double, retryAfter: TimeInterval? = nil) -> TimeInterval {
        let jittered = ceiling(attempt: attempt) * min(max(jitter, 0), 1)
        guard let retryAfter, retryAfter > 0 else { return jittered }
        return max(jittered, min(retryAfter, cap))
    }
}
