import Foundation
import SessionKit

/// Counts the events every process of one life publishes, including those a
/// process published just before it was killed and that were delivered after
/// (dropping them lost a real `sessionExpired` at the final kill). A killed
/// process cannot reach the network or the disk, so it cannot end a session.
final class EventTally: @unchecked Sendable {
    private let lock = NSLock()
    private var ended = false
    private(set) var logoutsBeforeEnd = 0
    private(set) var sessionExpired = 0
    private(set) var refreshes = 0
    private(set) var adoptions = 0
    private let trace: LifeTrace

    init(trace: LifeTrace) {
        self.trace = trace
    }

    /// Marks the moment the session is genuinely ended on the server.
    func markEnded() { lock.withLock { ended = true } }

    func record(_ event: SessionEvent, from process: SimulatedProcess) {
        trace.note("\(process.label) event \(Self.describe(event))")
        lock.withLock {
            switch event {
            case .sessionExpired:
                sessionExpired += 1
                if !ended { logoutsBeforeEnd += 1 }
            case .signedOut:
                if !ended { logoutsBeforeEnd += 1 }
            case .tokenRefreshed: refreshes += 1
            case .adoptedStoredSession: adoptions += 1
            case .initialSession, .signedIn, .refreshFailed, .persistenceFailed, .offline, .online, .userUpdated: break
            }
        }
    }

    /// An event as the trace shows it: no token, only its short hash.
    static func describe(_ event: SessionEvent) -> String {
        func session(_ session: Session) -> String {
            "refresh \(LifeTrace.short(session.refreshToken)), access expires \(session.expiresAt.timeIntervalSince1970)"
        }
        switch event {
        case .initialSession(let value): return "initialSession(\(value.map(session) ?? "none"))"
        case .signedIn(let value): return "signedIn(\(session(value)))"
        case .tokenRefreshed(let value): return "tokenRefreshed(\(session(value)))"
        case .adoptedStoredSession(let value): return "adoptedStoredSession(\(session(value)))"
        case .refreshFailed(let error, let willRetry): return "refreshFailed(\(error), willRetry: \(willRetry))"
        case .sessionExpired(let message): return "sessionExpired(\(message))"
        case .persistenceFailed(let error): return "persistenceFailed(\(error))"
        case .userUpdated(let user): return "userUpdated(\(user.id))"
        case .signedOut, .offline, .online: return "\(event)"
        }
    }

    var snapshot: (logouts: Int, expired: Int, refreshes: Int, adoptions: Int) {
        lock.withLock { (logoutsBeforeEnd, sessionExpired, refreshes, adoptions) }
    }
}
