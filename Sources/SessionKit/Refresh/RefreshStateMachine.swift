import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// When to refresh and what a refresh outcome means, with no I/O and no clock
/// of its own: every input carries the local time, every output is an action
/// ``SessionClient`` performs. Tested by feeding it times, never by sleeping.
///
/// All expiries are in the server's time; ``offset`` converts. The refresh
/// protocol this serves is docs/PROTOCOL.md.
struct RefreshStateMachine: Sendable {
    struct Configuration: Sendable {
        /// The most the proactive refresh runs ahead of expiry.
        var buffer: TimeInterval
        /// A token is treated as expired this long before `expiresAt`.
        var leeway: TimeInterval
        var backoff: Backoff
        /// Refused refreshes (an answer that is neither success nor a recognised
        /// end) before the state asks for attention; see ``needsAttention(for:now:)``.
        var attentionAfterRefusals: Int = SessionDefaults.attentionAfterRefusals
        /// The lifetime assumed for a token that does not state one.
        var defaultLifetime: TimeInterval = SessionDefaults.accessTokenLifetime
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
        /// Re-read the store and adopt a newer session if one is there.
        case adoptStoredSession
    }

    /// Whether an on-demand refresh may be sent now.
    enum Gate: Sendable, Equatable {
        case open
        /// A failure's backoff (or `Retry-After`) is in force until `until`: answer `error` without asking.
        case failing(until: Date, error: SessionError)
        /// The last refresh succeeded but its token is already due (`expires_in: 0`):
        /// use it rather than refresh again before `until`.
        case justRefreshed(until: Date)
    }

    let configuration: Configuration
    var offset = ServerClockOffset()
    /// Consecutive failed refreshes (transient or refused) since the last success.
    private(set) var failures = 0
    /// Consecutive refused refreshes, and the local time of the first.
    private(set) var refusals = 0
    private(set) var firstRefusalAt: Date?
    /// Consecutive successes whose token was already due when it arrived.
    private(set) var degenerateSuccesses = 0
    /// The last success was an answer read late and was refreshed at once;
    /// the next one that is due on arrival waits the backoff, late or not.
    private var refreshedALateAnswer = false
    /// No on-demand refresh before this local time.
    private(set) var notBefore: Date?
    /// The local time `notBefore` was set at. A device clock set back (by a
    /// person, or travel) would otherwise stretch a seconds-long wait into
    /// hours of answering from the backoff; before this time, the wait is over.
    private var notBeforeSetAt: Date?
    /// The access token of the last refresh the server answered in this
    /// process (not adopted from another): a rejection of it is the server's word.
    private(set) var lastIssuedAccessToken: String?
    private var lastFailure: SessionError?

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

    /// Whether an on-demand refresh (``SessionClient/accessToken()``, a 401) may go out at `now`.
    func gate(now: Date) -> Gate {
        guard let notBefore, now < notBefore, !clockWentBack(now) else { return .open }
        if let lastFailure { return .failing(until: notBefore, error: lastFailure) }
        return .justRefreshed(until: notBefore)
    }

    /// A new session is in place (sign-in, restore, adoption): every count starts over.
    mutating func sessionChanged(to session: Session, now: Date) -> Action {
        reset()
        return schedule(session, now: now)
    }

    /// A refresh sent at `sentAt` succeeded with `session`.
    ///
    /// A token that is already due on arrival (`expires_in: 0`, a negative
    /// one, an `exp` in the past) is used, and the next refresh waits a
    /// growing backoff instead of following at once: otherwise such a server
    /// would be asked again in a tight loop.
    ///
    /// An answer read late is not such a token (docs/PROTOCOL.md, "What each
    /// failure does"): the app was suspended between the answer's arrival and
    /// its reading, so the token is expired now though it was fresh for the
    /// whole time the request was out. Using it would send a token the
    /// server has expired; it is refreshed at once instead, once: if the
    /// next answer is due on arrival too, the backoff applies.
    mutating func refreshSucceeded(with session: Session, sentAt: Date, now: Date, jitter: Double) -> Action {
        lastIssuedAccessToken = session.accessToken
        let due = refreshDate(for: session) <= now || isExpired(session, now: now)
        guard due else {
            refreshedALateAnswer = false
            return sessionChanged(to: session, now: now)
        }
        if !refreshedALateAnswer, isExpired(session, now: now), refreshDate(for: session) > sentAt {
            reset()
            refreshedALateAnswer = true
            return .refreshNow
        }
        let streak = degenerateSuccesses + 1
        reset()
        degenerateSuccesses = streak
        // At least a second: a jitter of 0 must not turn the guard into a loop.
        let delay = max(1, configuration.backoff.delay(attempt: degenerateSuccesses, jitter: jitter))
        wait(delay, from: now)
        return .retry(after: delay)
    }

    /// The server clock estimate changed: move the proactive refresh, but
    /// leave a backoff in force alone (a new sample must not restart it).
    func rescheduled(_ session: Session, now: Date) -> Action {
        if failures > 0 || degenerateSuccesses > 0 { return .none }
        return schedule(session, now: now)
    }

    /// The app came to the foreground: timers may not have run while it was suspended.
    func resumed(session: Session, now: Date, offline: Bool) -> Action {
        if offline { return .refreshNow }
        if failures > 0, let notBefore {
            return .retry(after: clockWentBack(now) ? 0 : max(0, notBefore.timeIntervalSince(now)))
        }
        return schedule(session, now: now)
    }

    /// A refresh attempt ended with `outcome` at `now` (success is ``refreshSucceeded(with:sentAt:now:jitter:)``).
    mutating func refreshFailed(_ outcome: RefreshOutcome, now: Date, jitter: Double) -> Action {
        switch outcome {
        case .success:
            return .none
        case .transient(let error):
            return backOff(error, now: now, jitter: jitter)
        case .refused(let error):
            refusals += 1
            if firstRefusalAt == nil { firstRefusalAt = now }
            return backOff(error, now: now, jitter: jitter)
        case .alreadyUsed:
            return .adoptStoredSession
        case .terminal(let error):
            reset()
            return .clearSession(reason: error.message)
        }
    }

    /// True once refusals have gone on long enough that the person should be
    /// told: at least ``Configuration/attentionAfterRefusals`` of them, and
    /// never sooner than one access-token lifetime after the first.
    func needsAttention(for session: Session, now: Date) -> Bool {
        guard refusals >= configuration.attentionAfterRefusals, let firstRefusalAt else { return false }
        let lifetime = session.lifetime ?? configuration.defaultLifetime
        return now.timeIntervalSince(firstRefusalAt) >= lifetime
    }

    private mutating func backOff(_ error: SessionError, now: Date, jitter: Double) -> Action {
        failures += 1
        let delay = configuration.backoff.delay(attempt: failures, jitter: jitter, retryAfter: error.retryAfter)
        wait(delay, from: now)
        lastFailure = error
        return .retry(after: delay)
    }

    private mutating func reset() {
        failures = 0
        refusals = 0
        firstRefusalAt = nil
        degenerateSuccesses = 0
        notBefore = nil
        notBeforeSetAt = nil
        lastFailure = nil
    }

    private mutating func wait(_ delay: TimeInterval, from now: Date) {
        notBefore = now.addingTimeInterval(delay)
        notBeforeSetAt = now
    }

    /// Whether the device clock now reads earlier than when the wait began.
    private func clockWentBack(_ now: Date) -> Bool {
        notBeforeSetAt.map { now < $0 } ?? false
    }

    private func schedule(_ session: Session, now: Date) -> Action {
        let due = refreshDate(for: session)
        if due <= now || isExpired(session, now: now) { return .refreshNow }
        return .scheduleRefresh(at: due)
    }
}
