import Foundation
import NIOConcurrencyHelpers

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
///
/// A lock, not an actor: each request asks once, and an actor call costs more
/// executor hops than the dictionary read it guards.
public final class SessionCheckCache: Sendable {
    struct Entry: Sendable {
        let userID: String
        let goodUntil: Date
    }

    /// What a lookup found: a live answer, or the epoch to remember a fresh one under.
    public enum Lookup: Sendable, Equatable {
        case active
        case unknown(epoch: UInt64)
    }

    /// Seconds an "active" answer is trusted; 0 disables the cache.
    public let ttl: TimeInterval
    /// The most sessions remembered; past it the cache starts over.
    public let capacity: Int
    private struct State {
        var entries: [String: Entry] = [:]
        var epoch: UInt64 = 0
    }
    private let state = NIOLockedValueBox(State())

    public init(ttl: TimeInterval, capacity: Int = 100_000) {
        self.ttl = max(0, ttl)
        self.capacity = max(0, capacity)
    }

    /// Whether `sessionID` of `userID` is known live at `now`.
    public func lookup(sessionID: String, userID: String, now: Date) -> Lookup {
        state.withLockedValue { state in
            if let entry = state.entries[sessionID], entry.userID == userID, now < entry.goodUntil { return .active }
            return .unknown(epoch: state.epoch)
        }
    }

    /// Remembers a live answer read at `now` (the epoch came from ``lookup(sessionID:userID:now:)``
    /// before the read: a revocation committed since then voids it).
    public func remember(sessionID: String, userID: String, notAfter: Date, now: Date, epoch readEpoch: UInt64) {
        guard ttl > 0, capacity > 0 else { return }
        let entry = Entry(userID: userID, goodUntil: min(now.addingTimeInterval(ttl), notAfter))
        let capacity = self.capacity
        state.withLockedValue { state in
            guard readEpoch == state.epoch else { return }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[sessionID] = entry
        }
    }

    /// Forgets every answer; called after any revocation commits.
    public func forgetAll() {
        state.withLockedValue { state in
            state.epoch &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }

    /// How many sessions are remembered now.
    public var count: Int { state.withLockedValue { $0.entries.count } }
}
