import Foundation

/// Remembers, for a few seconds, that a session was found live, so a busy
/// client does not cost a database read per request.
///
/// The bound on revocation is explicit:
/// - a revocation made through this server's ``AuthStore`` (sign-out, device
///   revocation, account deletion, refresh-token reuse) takes effect at once:
///   the store forgets every remembered answer after it commits;
/// - a revocation this process cannot see (another replica on the same
///   PostgreSQL, a hand-written SQL update) takes effect within `ttl` seconds.
///
/// Only "active" is remembered: a revoked session never comes back. An answer
/// is also never kept past the session's absolute cap (`not_after`).
public final class SessionCheckCache: Sendable {
    /// What a lookup found: a live answer, or the epoch to remember a fresh one under.
    public enum Lookup: Sendable, Equatable {
        case active
        case unknown(epoch: UInt64)
    }

    /// Seconds an "active" answer is trusted; 0 disables the cache.
    public let ttl: TimeInterval
    /// The most sessions remembered; past it the cache starts over.
    public var capacity: Int { answers.capacity }
    /// Session id → the user it was found live for.
    private let answers: EpochCache<String>

    public init(ttl: TimeInterval, capacity: Int = 100_000) {
        self.ttl = max(0, ttl)
        self.answers = EpochCache(capacity: capacity)
    }

    /// Whether `sessionID` of `userID` is known live at `now`.
    public func lookup(sessionID: String, userID: String, now: Date) -> Lookup {
        let (owner, epoch) = answers.lookup(sessionID, now: now)
        return owner == userID ? .active : .unknown(epoch: epoch)
    }

    /// Remembers a live answer read at `now` (the epoch came from ``lookup(sessionID:userID:now:)``
    /// before the read: a revocation committed since then voids it).
    public func remember(sessionID: String, userID: String, notAfter: Date, now: Date, epoch readEpoch: UInt64) {
        guard ttl > 0 else { return }
        answers.remember(userID, for: sessionID, goodUntil: min(now.addingTimeInterval(ttl), notAfter), epoch: readEpoch)
    }

    /// Forgets every answer; called after any revocation commits.
    public func forgetAll() {
        answers.forgetAll()
    }

    /// How many sessions are remembered now.
    public var count: Int { answers.count }
}
