import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import Testing

@testable import SessionKit

struct RefreshStateMachineTests {
    static let t0 = Date(timeIntervalSince1970: 1_767_225_600)

    func machine(buffer: TimeInterval = 300, leeway: TimeInterval = 60) -> RefreshStateMachine {
        RefreshStateMachine(configuration: .init(buffer: buffer, leeway: leeway, backoff: Backoff(base: 1, cap: 300)))
    }

    func session(expiresIn: TimeInterval, lifetime: TimeInterval? = 3600) -> Session {
        Session(accessToken: "a", refreshToken: "r", expiresAt: Self.t0.addingTimeInterval(expiresIn), lifetime: lifetime)
    }

    @Test func schedulesProactiveRefreshBufferBeforeExpiry() {
        var m = machine()
        let action = m.sessionChanged(to: session(expiresIn: 3600), now: Self.t0)
        #expect(action == .scheduleRefresh(at: Self.t0.addingTimeInterval(3300)))
    }

    @Test func shortLifetimeRefreshesAtHalfLife() {
        var m = machine()
        let action = m.sessionChanged(to: session(expiresIn: 120, lifetime: 120), now: Self.t0)
        #expect(action == .scheduleRefresh(at: Self.t0.addingTimeInterval(60)))
    }

    @Test func unknownLifetimeUsesTheBuffer() {
        let m = machine()
        #expect(m.refreshDate(for: session(expiresIn: 1000, lifetime: nil)) == Self.t0.addingTimeInterval(700))
    }

    @Test func dueSessionRefreshesNow() {
        var m = machine()
        #expect(m.sessionChanged(to: session(expiresIn: 200), now: Self.t0) == .refreshNow)
    }

    @Test func expiryCountsTheLeeway() {
        let m = machine()
        #expect(!m.isExpired(session(expiresIn: 61), now: Self.t0))
        #expect(m.isExpired(session(expiresIn: 60), now: Self.t0))
        #expect(m.isExpired(session(expiresIn: -5), now: Self.t0))
    }

    @Test func leewayNeverExceedsAQuarterOfTheLifetime() {
        let m = machine()
        // 40 s token: leeway is 10 s, so it is usable for its first 30 s.
        #expect(!m.isExpired(session(expiresIn: 40, lifetime: 40), now: Self.t0))
        #expect(m.isExpired(session(expiresIn: 10, lifetime: 40), now: Self.t0))
    }

    @Test func serverAheadMakesTokensExpireEarlierInLocalTime() {
        var m = machine()
        m.offset = ServerClockOffset(seconds: 600)
        // Expires 900 s after t0 in server time = 300 s after t0 locally.
        let s = session(expiresIn: 900)
        #expect(m.refreshDate(for: s) == Self.t0)
        #expect(!m.isExpired(s, now: Self.t0))
        #expect(m.isExpired(s, now: Self.t0.addingTimeInterval(240)))
    }

    @Test func transientFailuresBackOffWithFullJitter() {
        var m = machine()
        let failure = RefreshOutcome.transient(.server)
        #expect(m.refreshFailed(failure, now: Self.t0, jitter: 0.5) == .retry(after: 0.5))
        #expect(m.refreshFailed(failure, now: Self.t0, jitter: 0.5) == .retry(after: 1))
        #expect(m.refreshFailed(failure, now: Self.t0, jitter: 0.5) == .retry(after: 2))
        #expect(m.failures == 3)
        // A success resets the count.
        _ = m.sessionChanged(to: session(expiresIn: 3600), now: Self.t0)
        guard case .retry(let delay) = m.refreshFailed(failure, now: Self.t0, jitter: 0.999) else {
            Issue.record("expected a retry")
            return
        }
        #expect(delay < 1)
    }

    @Test func retryAfterIsAFloor() {
        var m = machine()
        let limited = RefreshOutcome.transient(SessionError.rateLimited.with(retryAfter: 30))
        #expect(m.refreshFailed(limited, now: Self.t0, jitter: 0.1) == .retry(after: 30))
    }

    @Test func terminalOutcomesClearTheSession() {
        var m = machine()
        #expect(m.refreshFailed(.terminal(.sessionExpired), now: Self.t0, jitter: 0) == .clearSession(reason: SessionError.sessionExpiredMessage))
        #expect(m.refreshFailed(.alreadyUsed(.sessionExpired), now: Self.t0, jitter: 0) == .adoptStoredSession)
    }

    @Test func resumeRefreshesWhenDueOrOffline() {
        let m = machine()
        let s = session(expiresIn: 3600)
        #expect(m.resumed(session: s, now: Self.t0.addingTimeInterval(3400), offline: false) == .refreshNow)
        #expect(m.resumed(session: s, now: Self.t0, offline: false) == .scheduleRefresh(at: Self.t0.addingTimeInterval(3300)))
        #expect(m.resumed(session: s, now: Self.t0, offline: true) == .refreshNow)
    }

    /// Found by the full-size adversarial chaos run: a person set the phone's
    /// clock back 10 hours during a one-second pause, and for 10 hours every
    /// request was answered from that pause (docs/RELIABILITY.md, "What the
    /// full-size adversarial run found").
    @Test func aClockSetBackEndsTheWaitItWasSetIn() {
        var m = machine()
        let s = session(expiresIn: 3600)
        #expect(m.refreshFailed(.transient(.network), now: Self.t0, jitter: 0.5) == .retry(after: 0.5))
        guard case .failing = m.gate(now: Self.t0) else {
            Issue.record("expected the backoff in force")
            return
        }
        let setBack = Self.t0.addingTimeInterval(-36_000)
        #expect(m.gate(now: setBack) == .open)
        #expect(m.resumed(session: s, now: setBack, offline: false) == .retry(after: 0))
        // A token already due on arrival pauses on-demand refreshes; a clock set back ends that pause too.
        _ = m.refreshSucceeded(with: session(expiresIn: -10), sentAt: Self.t0, now: Self.t0, jitter: 0.5)
        guard case .justRefreshed = m.gate(now: Self.t0) else {
            Issue.record("expected the pause after a token due on arrival")
            return
        }
        #expect(m.gate(now: setBack) == .open)
    }

    /// Life 1184 of the full-size adversarial run: a refresh's answer arrived,
    /// the app was suspended before reading it, and it was read 8 hours later,
    /// expired. It was taken for a server that issues dead tokens: used, with
    /// on-demand refreshes paused, so the next request sent an expired token.
    @Test func anAnswerReadLateIsRefreshedAtOnceNotUsed() {
        var m = machine()
        let readAt = Self.t0.addingTimeInterval(30_000)
        let late = session(expiresIn: 3600)
        #expect(m.refreshSucceeded(with: late, sentAt: Self.t0, now: readAt, jitter: 0.5) == .refreshNow)
        #expect(m.gate(now: readAt) == .open)
        // Once: a second answer due on arrival waits the backoff, read late or not.
        let lateAgain = Session(
            accessToken: "b", refreshToken: "r2", expiresAt: readAt.addingTimeInterval(3600), lifetime: 3600)
        let later = readAt.addingTimeInterval(30_000)
        #expect(m.refreshSucceeded(with: lateAgain, sentAt: readAt, now: later, jitter: 0.5) == .retry(after: 1))
        guard case .justRefreshed = m.gate(now: later) else {
            Issue.record("expected the pause after a second answer due on arrival")
            return
        }
        // A fresh answer ends the once: the next late answer is refreshed at once again.
        let fresh = Session(accessToken: "c", refreshToken: "r3", expiresAt: later.addingTimeInterval(3600), lifetime: 3600)
        _ = m.refreshSucceeded(with: fresh, sentAt: later, now: later, jitter: 0.5)
        #expect(m.refreshSucceeded(with: fresh, sentAt: later, now: later.addingTimeInterval(7200), jitter: 0.5) == .refreshNow)
    }

    /// What the pause exists for is unchanged: a token dead when the request
    /// was sent is a server issuing dead tokens, however long the answer took.
    @Test func aTokenDeadBeforeTheRequestWasSentStillPauses() {
        var m = machine()
        let dead = session(expiresIn: -10)
        #expect(m.refreshSucceeded(with: dead, sentAt: Self.t0, now: Self.t0.addingTimeInterval(5), jitter: 0.5) == .retry(after: 1))
        guard case .justRefreshed = m.gate(now: Self.t0.addingTimeInterval(5)) else {
            Issue.record("expected the pause after a token due on arrival")
            return
        }
    }
}
