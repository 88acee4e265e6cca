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
                _ = try await refreshSession(reason: .scheduled(refreshToken: session.refreshToken))
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
        timer?.cancel()
        timer = nil
        validation?.cancel()
        writeRetryTask?.cancel()
        if let flight = inflight { _ = await flight.task.value }
        if let record = pendingWrite {
            do {
                try await store.save(record)
                pendingWrite = nil
                lastStoredRefreshToken = record.refreshToken
            } catch {
                logger.error("The session could not be saved before shutdown", metadata: ["reason": "\(error)"])
            }
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
        case .none, .clearSession, .signOut, .adoptStoredSession:
            break
        }
    }

    /// (Re)arms the one refresh timer.
    func startTimer(at date: Date, refreshToken: String) {
        guard configuration.automaticRefresh, !isShutDown else { return }
        timer?.cancel()
        let gen = generation
        let clock = self.clock
        timer = Task { [weak self] in
            do {
                try await clock.sleep(until: date)
            } catch {
                return  // cancelled: a newer timer replaced this one
            }
            await self?.timerFired(generation: gen, refreshToken: refreshToken)
        }
    }

    private func timerFired(generation gen: UInt64, refreshToken: String) async {
        guard gen == generation, current?.refreshToken == refreshToken, !isShutDown else { return }
        timer = nil
        do {
            _ = try await refreshSession(reason: .scheduled(refreshToken: refreshToken))
        } catch {
            // Published and rescheduled by the refresh path.
            logger.debug("Scheduled refresh failed", metadata: ["reason": "\(error.message)"])
        }
    }

    /// Saves a refreshed session. On failure the session stays in memory, the
    /// write is retried with backoff and `persistenceFailed` is published: the
    /// new refresh token is never dropped.
    func persistRefreshed(_ session: Session) async {
        let record = StoredSession(session, pkceVerifier: pkceVerifier)
        do {
            try await store.save(record)
            lastStoredRefreshToken = record.refreshToken
            pendingWrite = nil
            writeRetryTask?.cancel()
        } catch {
            logger.error("The refreshed session could not be saved; keeping it in memory and retrying", metadata: ["reason": "\(error)"])
            pendingWrite = record
            broadcaster.publish(.persistenceFailed(SessionError.persistenceFailed.with(underlying: error.reason)))
            startWriteRetry()
        }
    }

    private func startWriteRetry() {
        writeRetryTask?.cancel()
        guard !isShutDown else { return }
        let clock = self.clock
        let backoff = configuration.backoff
        let jitter = configuration.jitter
        writeRetryTask = Task { [weak self] in
            var attempt = 0
            while true {
                attempt += 1
                // At least a second apart, so a broken disk is not hammered.
                let delay = max(1, backoff.delay(attempt: attempt, jitter: jitter.unit()))
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return  // cancelled: a newer write or the end of the session
                }
                guard let self, await self.retryPendingWrite() else { return }
            }
        }
    }

    /// - Returns: `true` when the write must be tried again.
    private func retryPendingWrite() async -> Bool {
        guard let record = pendingWrite else { return false }
        do {
            try await store.save(record)
        } catch {
            logger.warning("Saving the session failed again; will retry", metadata: ["reason": "\(error)"])
            return true
        }
        // Only clear if nothing newer was queued while saving.
        if pendingWrite == record {
            pendingWrite = nil
            lastStoredRefreshToken = record.refreshToken
            logger.info("The session was saved after an earlier failure")
        }
        return pendingWrite != nil
    }
}
