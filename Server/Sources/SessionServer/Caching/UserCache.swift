import Foundation

/// Remembers user rows for a second or so, so `GET /user` and
/// `GET /v1/auth/me` from a busy client cost no database read.
///
/// The staleness bound is the session check's (``SessionCheckCache``), and
/// for the same reasons:
/// - a change made through this server's ``AuthStore`` (metadata, password,
///   email, confirmation, ban, identities, deletion) is seen by the very next
///   read: the store forgets every row after such a write commits, and a read
///   that started before the commit cannot store what it found (it carries
///   the epoch it started under);
/// - a change this process cannot see (another replica, a hand-written SQL
///   update) is seen within `ttl` seconds.
///
/// Only ``AuthStore/currentUser(id:now:)`` reads through it; anything that
/// reads a user in order to change it reads the row.
public final class UserCache: Sendable {
    /// What a lookup found: the row, or the epoch to remember a fresh read under.
    enum Lookup: Sendable {
        case hit(UserRecord)
        case miss(epoch: UInt64)
    }

    /// Seconds a row is trusted; 0 disables the cache.
    public let ttl: TimeInterval
    /// The most rows remembered; past it the cache starts over. With a TTL of
    /// a second this is "users active in the last second", so 10,000 is ample.
    public var capacity: Int { rows.capacity }
    private let rows: EpochCache<UserRecord>

    public init(ttl: TimeInterval, capacity: Int = 10_000) {
        self.ttl = max(0, ttl)
        self.rows = EpochCache(capacity: capacity)
    }

    func lookup(id: String, now: Date) -> Lookup {
        let (user, epoch) = rows.lookup(id, now: now)
        return user.map(Lookup.hit) ?? .miss(epoch: epoch)
    }

    /// Remembers a row read at `now`, unless a write committed since `readEpoch` was taken.
    func remember(_ user: UserRecord, now: Date, epoch readEpoch: UInt64) {
        guard ttl > 0 else { return }
        rows.remember(user, for: user.id, goodUntil: now.addingTimeInterval(ttl), epoch: readEpoch)
    }

    /// Forgets every row; called after any write to users or identities commits.
    public func forgetAll() {
        rows.forgetAll()
    }

    /// How many rows are remembered now.
    public var count: Int { rows.count }
}
