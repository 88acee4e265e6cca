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

    /// Marks the moment the session is genuinely ended on the server.
    func markEnded() { lock.withLock { ended = true } }

    func record(_ event: SessionEvent, from process: SimulatedProcess) {
        lock.withLock {
            switch event {
            case .sessionExpired:
                sessionExpired += 1
                if !ended { logoutsBeforeEnd += 1 }
            case .signedOut:
                if !ended { logoutsBeforeEnd += 1 }
            case .tokenRefreshed: refreshes += 1
            case .adoptedStoredSession: adoptions += 1
            case .signedIn, .refreshFailed, .persistenceFailed, .offline, .online: break
            }
        }
    }

    var snapshot: (logouts: Int, expired: Int, refreshes: Int, adoptions: Int) {
        lock.withLock { (logoutsBeforeEnd, sessionExpired, refreshes, adoptions) }
    }
}
