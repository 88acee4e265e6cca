import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When to refresh and what a refresh outcome means, with no I/O and no clock
/// of its own: every input carries the local time, every output is an action
/// ``SessionClient`` performs. Tested by feeding it times, never by sleeping.
///
/// All expiries are in the server's time; ``offset`` converts.
struct RefreshStateMachine: Sendable {
    struct Configuration: Sendable {
        /// The most the proactive refresh runs ahead of expiry.
        var buffer: TimeInterval
        /// A token is treated as expired this long before `expiresAt`.
        var leeway: TimeInterval
        var backoff: Backoff
    }

    enum Action: Sendable, Equatable {
        case none
        /// Refresh proactively when the local clock reads this.
        case scheduleRefresh(at: Date)
        /// The refresh is due (or overdue): refresh now.
        case refreshNow
        /// A transient failure: retry after this many seconds.
        case retry(after: TimeInterval)
        /// The server ended the session: clear it, publish `sessionExpired` once.
        case clearSession(reason: String)
        /// The server wants credentials: clear the session without a message.
        case signOut
        /// Re-read the store and adopt a newer session if one is there.
        case adoptStoredSession
    }

    let configuration: Configuration
    var offset = ServerClockOffset()
    /// Consecutive transient failures since the last success.
    private(set) var failures = 0

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The leeway for `session`: never more than a quarter of its lifetime,
    /// so a short-lived token is not "expired" the moment it is issued.
    func leeway(for session: Session) -> TimeInterval {
        guard let lifetime = session.lifetime, lifetime > 0 else { return configuration.leeway }
        return min(configuration.leeway, lifetime / 4)
    }

    /// True when `session`'s access token must not be used any more.
    func isExpired(_ session: Session, now: Date) -> Bool {
        offset.serverTime(at: now).addingTimeInterval(leeway(for: session)) >= session.expiresAt
    }

    /// The local time of the proactive refresh: `expiresAt - min(buffer, lifetime / 2)`.
    func refreshDate(for session: Session) -> Date {
        let ahead = session.lifetime.map { min(configuration.buffer, $0 / 2) } ?? configuration.buffer
        return offset.localTime(for: session.expiresAt.addingTimeInterval(-ahead))
    }

    /// A new session is in place (sign-in, restore, refresh, adoption).
    mutating func sessionChanged(to session: Session, now: Date) -> Action {
        failures = 0
        return schedule(session, now: now)
    }

    /// The app came to the foreground: timers may not have run while it was suspended.
    mutating func resumed(session: Session, now: Date, offline: Bool) -> Action {
        if offline { return .refreshNow }
        return schedule(session, now: now)
    }

    /// A refresh attempt ended with `outcome` (success handled by ``sessionChanged(to:now:)``).
    mutating func refreshFailed(_ outcome: RefreshOutcome, jitter: Double) -> Action {
        switch outcome {
        case .success:
            failures = 0
            return .none
        case .transient(let error):
            failures += 1
            return .retry(after: configuration.backoff.delay(attempt: failures, jitter: jitter, retryAfter: error.retryAfter))
        case .alreadyUsed:
            return .adoptStoredSession
        case .terminal:
            failures = 0
            return .clearSession(reason: SessionError.sessionExpiredMessage)
        case .signedOutSilently:
            failures = 0
            return .signOut
        }
    }

    private func schedule(_ session: Session, now: Date) -> Action {
        let due = refreshDate(for: session)
        if due <= now || isExpired(session, now: now) { return .refreshNow }
        return .scheduleRefresh(at: due)
    }
}
