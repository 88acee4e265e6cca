import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Timers (proactive refresh, retry), the write retry, resume and shutdown.
extension SessionClient {
    /// Call when the app comes to the foreground: timers may not have run
    /// while it was suspended, so a due refresh happens now, and an offline
    /// session is retried at once.
    public func resume() async {
        guard let session = current, !isShutDown else { return }
        switch machine.resumed(session: session, now: clock.now, offline: isOffline) {
        case .refreshNow:
            do {
                _ = try await refreshSession(reason: .scheduled(refreshToken: session.refreshToken), honouringBackoff: false)
            } catch {
                // The refresh path already published the failure and scheduled the retry.
                logger.debug("Refresh on resume failed", metadata: ["reason": "\(error.message)"])
            }
        case let action:
            apply(action)
        }
    }

    /// Stops background work (timers, validation), makes a last attempt to save
    /// an unsaved session, waits for an in-flight refresh, and finishes the
    /// `states` and `events` streams. Call before a short-lived process exits.
    public func shutdown() async {
        isShutDown = true
        stopObservingLifecycle()
        timer?.cancel()
        timer = nil
        validation?.cancel()
        writeRetryTask?.cancel()
        if let flight = inflight { _ = await flight.task.value }
        if pendingWrite != nil, await retryPendingWrite() {
            logger.error("The session could not be saved before shutdown; the store keeps the previous record")
        }
        broadcaster.finish()
    }

    /// Performs a state-machine action that only schedules.
    func apply(_ action: RefreshStateMachine.Action) {
        guard let session = current else { return }
        switch action {
        case .scheduleRefresh(let date):
            startTimer(at: date, refreshToken: session.refreshToken)
        case .refreshNow:
            startTimer(at: clock.now, refreshToken: session.refreshToken)
        case .retry(let delay):
            startTimer(at: clock.now.addingTimeInterval(delay), refreshToken: session.refreshToken)
        case .none, .clearSession, .adoptStoredSession:
            break
        }
    }

    /// (Re)arms the one refresh timer.
    func startTimer(at date: Date, refreshToken: String) {
        guard configuration.automaticRefresh, !isShutDown else { return }
        timer?.cancel()
        let gen = generation
        let clock = self.clock
        // The `timer-keeps-client` sabotage: a timer that holds its client keeps a dropped one refreshing.
        let kept: SessionClient? = planted(.timerKeepsClient) ? self : nil
        timer = Task { [weak self] in
            do {
                try await clock.sleep(until: date)
            } catch {
                return  // cancelled: a newer timer replaced this one
            }
            await (kept ?? self)?.timerFired(generation: gen, refreshToken: refreshToken)
        }
    }

    private func timerFired(generation gen: UInt64, refreshToken: String) async {
        guard gen == generation, current?.refreshToken == refreshToken, !isShutDown else { return }
        timer = nil
        do {
            // The timer is the backoff: it does not wait for itself.
            _ = try await refreshSession(reason: .scheduled(refreshToken: refreshToken), honouringBackoff: false)
        } catch {
            // Published and rescheduled by the refresh path.
            logger.debug("Scheduled refresh failed", metadata: ["reason": "\(error.message)"])
        }
    }
}
