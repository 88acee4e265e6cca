import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// The refresh engine: single flight inside the process (one `Task` kept in
/// the actor, set before the first `await`) and across processes (the
/// store's lock, then a re-read of the store before asking the server).
extension SessionClient {
    /// Why a refresh is wanted; decides when an already refreshed session is good enough.
    enum RefreshReason: Sendable {
        /// The access token has expired: any unexpired session will do.
        case expired
        /// The server rejected this access token: any other token will do.
        case rejected(accessToken: String)
        /// Proactive or retry timer for this refresh token: any other refresh token will do.
        case scheduled(refreshToken: String)
    }

    /// Forces a refresh now and returns the new session.
    ///
    /// - Throws: ``SessionError/notSignedIn``, ``SessionError/sessionExpired``
    ///   (the server ended the session) or a transient error (the session is kept).
    @discardableResult
    public func refresh() async throws(SessionError) -> Session {
        guard let session = current else { throw .notSignedIn }
        return try await refreshSession(reason: .rejected(accessToken: session.accessToken))
    }

    /// A fresh access token, refreshing first (single flight) when it has expired.
    ///
    /// - Throws: ``SessionError/notSignedIn``, ``SessionError/sessionExpired``,
    ///   or ``SessionError/network`` and others when the token expired and the
    ///   server cannot refresh it right now (the session is kept).
    public func accessToken() async throws(SessionError) -> String {
        try await validSession().accessToken
    }

    /// The session, refreshed first if its access token has expired.
    func validSession() async throws(SessionError) -> Session {
        guard let session = current else { throw .notSignedIn }
        if !machine.isExpired(session, now: clock.now) { return session }
        return try await refreshSession(reason: .expired)
    }

    /// Refreshes, joining the in-flight refresh when it serves `reason`.
    func refreshSession(reason: RefreshReason) async throws(SessionError) -> Session {
        while true {
            guard let session = current else { throw .notSignedIn }
            if isSatisfied(reason, by: session) { return session }
            if let flight = inflight {
                let result = await flight.task.value
                if case .failure(let error) = result, current?.refreshToken == flight.refreshToken {
                    // It failed for the very session we hold: that is our answer too.
                    throw error
                }
                // Succeeded or the session changed meanwhile: look again.
                continue
            }
            return try await startFlight(from: session).task.value.get()
        }
    }

    private func isSatisfied(_ reason: RefreshReason, by session: Session) -> Bool {
        switch reason {
        case .expired: !machine.isExpired(session, now: clock.now)
        case .rejected(let accessToken): session.accessToken != accessToken
        case .scheduled(let refreshToken): session.refreshToken != refreshToken
        }
    }

    /// Starts the one refresh flight; callers that come later join it.
    private func startFlight(from session: Session) -> RefreshFlight {
        flightCounter += 1
        let id = flightCounter
        let gen = generation
        // Set before any `await`, so every concurrent caller sees it.
        let task = Task { await self.performRefresh(from: session, generation: gen, flightID: id) }
        let flight = RefreshFlight(id: id, refreshToken: session.refreshToken, task: task)
        inflight = flight
        return flight
    }

    private func performRefresh(
        from session: Session, generation gen: UInt64, flightID: UInt64
    ) async -> Result<Session, SessionError> {
        let lock: (any SessionStoreLock)?
        do {
            lock = try await store.lockForRefresh()
        } catch {
            // Refreshing without the lock risks a race the server's reuse grace
            // absorbs; not refreshing at all would strand the person.
            logger.warning("The refresh lock could not be taken; refreshing without it", metadata: ["reason": "\(error)"])
            lock = nil
        }
        let result = await refreshLocked(from: session, generation: gen)
        await lock?.unlock()
        if inflight?.id == flightID { inflight = nil }
        return result
    }

    private func refreshLocked(from session: Session, generation gen: UInt64) async -> Result<Session, SessionError> {
        guard gen == generation else { return .failure(.notSignedIn) }
        // Another process may have refreshed while we waited for the lock.
        switch await adoptStoredSessionIfNewer(than: session, generation: gen) {
        case .adopted(let adopted): return .success(adopted)
        case .signedOutElsewhere: return .failure(.notSignedIn)
        case .unchanged: break
        }
        logger.debug("Refreshing the session", metadata: ["refresh_token": "\(TokenRedaction.prefix(session.refreshToken))"])
        let outcome = await sendRefresh(refreshToken: session.refreshToken)
        guard gen == generation else {
            logger.info("Dropped a refresh result: the session changed while it was in flight")
            return .failure(current == nil ? .notSignedIn : .cancelled)
        }
        switch outcome {
        case .success(let response):
            let refreshed = Session(response: response, serverNow: machine.offset.serverTime(at: clock.now))
            // Persist (verified) first, then publish.
            await persistRefreshed(refreshed)
            guard gen == generation else { return .failure(.notSignedIn) }
            install(refreshed)
            logger.info("Refreshed the session", metadata: ["refresh_token": "\(TokenRedaction.prefix(refreshed.refreshToken))"])
            broadcaster.publish(.tokenRefreshed(refreshed))
            return .success(refreshed)
        case .alreadyUsed(let error), .terminal(let error):
            // Another process may have written a newer session (it refreshed
            // first, or signed in again): adopt it rather than end anything.
            switch await adoptStoredSessionIfNewer(than: session, generation: gen) {
            case .adopted(let adopted): return .success(adopted)
            case .signedOutElsewhere: return .failure(.notSignedIn)
            case .unchanged: return await endRefreshedSession(.terminal(error), error: error)
            }
        case .signedOutSilently(let error):
            return await endRefreshedSession(outcome, error: error)
        case .transient(let error):
            let action = machine.refreshFailed(outcome, jitter: configuration.jitter.unit())
            if error == .network || machine.isExpired(session, now: clock.now) { markOffline(session) }
            let willRetry = configuration.automaticRefresh && !isShutDown
            if error == .network {
                logger.notice("The server is unreachable; keeping the session", metadata: ["reason": "\(error)"])
            } else {
                logger.warning("The refresh failed; keeping the session and retrying", metadata: ["reason": "\(error)"])
            }
            broadcaster.publish(.refreshFailed(error, willRetry: willRetry))
            if case .retry(let delay) = action {
                startTimer(at: clock.now.addingTimeInterval(delay), refreshToken: session.refreshToken)
            }
            return .failure(error)
        }
    }

    private func endRefreshedSession(_ outcome: RefreshOutcome, error: SessionError) async -> Result<Session, SessionError> {
        switch machine.refreshFailed(outcome, jitter: 0) {
        case .signOut:
            logger.info("The server wants a new sign-in; signed out")
            await endSession(.silently)
            return .failure(.authRequired)
        default:
            logger.notice("The server ended the session", metadata: ["reason": "\(error)"])
            broadcaster.publish(.refreshFailed(error, willRetry: false))
            await endSession(.expired)
            return .failure(.sessionExpired)
        }
    }

    /// Sends the refresh request and reads the answer as the refresh-outcome table.
    private func sendRefresh(refreshToken: String) async -> RefreshOutcome {
        let request: URLRequest
        do {
            request = try backend.request(for: .refresh(refreshToken: refreshToken))
        } catch {
            return .transient(error)
        }
        switch await sendObserved(request) {
        case .failure(let error):
            return .transient(error)
        case .success(let (data, response)):
            return ResponseClassifier.refreshOutcome(
                status: response.statusCode, body: data, headers: response, backend: backend)
        }
    }

    enum AdoptionResult {
        case adopted(Session)
        case signedOutElsewhere
        case unchanged
    }

    /// Re-reads the store; adopts a session another process wrote meanwhile.
    func adoptStoredSessionIfNewer(than session: Session, generation gen: UInt64) async -> AdoptionResult {
        let record: StoredSession?
        do {
            record = try await store.load()
        } catch {
            // The in-memory session stays the authority; the refresh will rewrite the store.
            logger.error("The session store could not be re-read before refreshing", metadata: ["reason": "\(error)"])
            return .unchanged
        }
        guard gen == generation else { return .unchanged }
        // A record holding only a pending OAuth verifier holds no session: as if none were stored.
        guard let record, record.holdsSession else {
            if lastStoredRefreshToken != nil, pendingWrite == nil {
                logger.info("The stored session was removed by another process; signed out")
                await endSession(.silently, clearStore: false)
                return .signedOutElsewhere
            }
            return .unchanged
        }
        guard record.refreshToken != session.refreshToken, record.refreshToken != lastStoredRefreshToken else {
            return .unchanged
        }
        let adopted = record.session
        lastStoredRefreshToken = record.refreshToken
        pendingWrite = nil
        writeRetryTask?.cancel()
        install(adopted)
        logger.info("Adopted the session another process refreshed", metadata: ["refresh_token": "\(TokenRedaction.prefix(adopted.refreshToken))"])
        broadcaster.publish(.adoptedStoredSession(adopted))
        return .adopted(adopted)
    }

    /// Makes `session` current (same person, new tokens) and schedules its refresh.
    func install(_ session: Session) {
        current = session
        if isOffline {
            isOffline = false
            broadcaster.publish(.online)
        }
        broadcaster.set(.signedIn(session))
        apply(machine.sessionChanged(to: session, now: clock.now))
    }

    func markOffline(_ session: Session) {
        broadcaster.set(.offline(session))
        if !isOffline {
            isOffline = true
            broadcaster.publish(.offline)
        }
    }
}
