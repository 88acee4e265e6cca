import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// The refresh engine: single flight inside the process (one `Task` kept in
/// the actor, set before the first `await`) and across processes (the
/// store's lock, then a re-read of the store before asking the server).
/// docs/PROTOCOL.md walks through it step by step.
extension SessionClient {
    /// How long a refresh waits when the store was out of reach (a locked device); unlocking retries sooner.
    static let lockedStoreRetry: TimeInterval = 60

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
    /// An explicit call is not held back by the backoff in force (the
    /// automatic paths are).
    ///
    /// - Throws: ``SessionError/notSignedIn``, ``SessionError/sessionExpired``
    ///   (the server ended the session) or a transient error (the session is kept).
    @discardableResult
    public func refresh() async throws(SessionError) -> Session {
        try await ensureRestored()
        guard let session = current else { throw .notSignedIn }
        return try await refreshSession(reason: .rejected(accessToken: session.accessToken), honouringBackoff: false)
    }

    /// A fresh access token, refreshing first (single flight) when it has expired.
    ///
    /// Called while ``restore()`` runs, it waits for it. During an outage it
    /// answers from the backoff in force (and the server's `Retry-After`)
    /// instead of asking the server on every call.
    ///
    /// - Throws: ``SessionError/notSignedIn``, ``SessionError/sessionExpired``,
    ///   or ``SessionError/network`` and others when the token expired and the
    ///   server cannot refresh it right now (the session is kept).
    ///
    /// With a valid token it runs on the caller's executor and never
    /// suspends: called from the main actor, it stays there.
    public nonisolated(nonsending) func accessToken() async throws(SessionError) -> String {
        // A held, unexpired token needs no hop at all: not onto the actor and,
        // being `nonsending`, not off the caller's executor either (a plain
        // `nonisolated async` function leaves the main actor and comes back,
        // about 20 µs on Linux). Anything else goes through the actor
        // (docs/PROTOCOL.md, "Reading the token").
        if let token = tokenSnapshot.validToken(now: configuration.clock.now) { return token }
        // The slow path leaves by `return`, never by a `throw` right after
        // the await: Swift 6.2's optimizer could drop the hop back to the
        // caller's executor before a `throw` out of a `nonsending` function
        // (swiftlang/swift#88259, fixed on the 6.3 branch by #88687), and an app's
        // `catch` would then run off the main actor. The answer comes back as
        // a value from a function the optimizer cannot see into, and is
        // thrown only once back on the caller's executor.
        let answer = await accessTokenThroughTheActor()
        return try answer.get()
    }

    /// `accessToken()`'s slow path, on the actor: restore, refresh, backoff.
    @inline(never)
    func accessTokenThroughTheActor() async -> Result<String, SessionError> {
        do {
            return .success(try await validSession().accessToken)
        } catch {
            return .failure(error)
        }
    }

    /// The session, as supabase-swift's `auth.session` answers it: waits for
    /// the launch read (``restore()``, started if nobody has) and refreshes
    /// an expired access token first (single flight).
    ///
    /// ```swift
    /// let session = try await client.session
    /// ```
    ///
    /// - Throws: ``SessionError/notSignedIn`` when there is no session,
    ///   ``SessionError/sessionExpired`` when the server ended it, or a
    ///   transient error (``SessionError/network``…) when its access token
    ///   expired and cannot be refreshed right now (the session is kept).
    public var session: Session {
        get async throws(SessionError) { try await validSession() }
    }

    /// Republishes what ``accessToken()`` and ``send(_:)`` read without the actor:
    /// called on every change of `current`, of the refresh machine (its clock
    /// offset) and of the offline flag.
    func publishTokenSnapshot() {
        tokenSnapshot.publish(
            current.map { session in
                TokenSnapshot.Value(
                    accessToken: session.accessToken, expiresAt: session.expiresAt,
                    leeway: machine.leeway(for: session), offsetSeconds: machine.offset.seconds, offline: isOffline)
            })
    }

    /// The session, refreshed first if its access token has expired.
    func validSession() async throws(SessionError) -> Session {
        try await ensureRestored()
        guard let session = current else { throw .notSignedIn }
        if !machine.isExpired(session, now: clock.now) { return session }
        return try await refreshSession(reason: .expired)
    }

    /// Refreshes, joining the in-flight refresh when it serves `reason`.
    ///
    /// - Parameter honouringBackoff: when `true` (on-demand calls), a refresh
    ///   is not sent while a failure's backoff is in force; the last failure
    ///   is answered instead.
    func refreshSession(reason: RefreshReason, honouringBackoff: Bool = true) async throws(SessionError) -> Session {
        while true {
            guard let session = current else { throw .notSignedIn }
            if isSatisfied(reason, by: session) { return session }
            if planted(.stickyFailure), let stuck = stuckFailure() { throw stuck }
            if let flight = inflight {
                let result = await flight.task.value
                if case .failure(let error) = result, current?.refreshToken == flight.refreshToken {
                    // It failed for the very session we hold: that is our answer too.
                    throw error
                }
                // Succeeded or the session changed meanwhile: look again.
                continue
            }
            if honouringBackoff {
                switch machine.gate(now: clock.now) {
                case .open:
                    break
                case .failing(let until, let error):
                    // An outage in progress: answer from the backoff instead of asking again.
                    throw error.with(retryAfter: max(0, until.timeIntervalSince(clock.now)))
                case .justRefreshed:
                    // The server has just issued this token (with no useful
                    // lifetime): use it, unless the server has just rejected
                    // this very token. Then only a new one can help (a response
                    // read late, after a suspension, arrives already expired).
                    if case .rejected = reason { break }
                    return session
                }
            }
            return try await startFlight(from: session, reason: reason).task.value.get()
        }
    }

    /// The system is taking the background time back: cancel the flight, so it releases the store's lock.
    func backgroundTimeExpired(flightID: UInt64) {
        guard let flight = inflight, flight.id == flightID else { return }
        logger.notice("Background time ran out during a refresh; cancelling it and releasing the lock")
        flight.task.cancel()
    }

    func isSatisfied(_ reason: RefreshReason, by session: Session) -> Bool {
        switch reason {
        case .expired: !machine.isExpired(session, now: clock.now)
        case .rejected(let accessToken): session.accessToken != accessToken
        case .scheduled(let refreshToken): session.refreshToken != refreshToken
        }
    }

    /// Starts the one refresh flight; callers that come later join it.
    private func startFlight(from session: Session, reason: RefreshReason) -> RefreshFlight {
        flightCounter += 1
        let id = flightCounter
        let gen = generation
        // Set before any `await`, so every concurrent caller sees it.
        let task = Task { await self.performRefresh(from: session, reason: reason, generation: gen, flightID: id) }
        let flight = RefreshFlight(id: id, refreshToken: session.refreshToken, task: task)
        inflight = flight
        return flight
    }

    private func performRefresh(
        from session: Session, reason: RefreshReason, generation gen: UInt64, flightID: UInt64
    ) async -> Result<Session, SessionError> {
        // Held while the lock is: a suspended app must not sit on a lock its extensions wait for.
        // When the background time runs out, the flight is cancelled: its request and lock wait
        // end, and the lock is released below, before the system suspends the process.
        let activity = configuration.backgroundActivity.begin("SessionKit refresh") { [weak self] in
            Task { await self?.backgroundTimeExpired(flightID: flightID) }
        }
        let lock = planted(.skipLockAndReread) ? nil : await takeLock(for: "refresh")
        let result: Result<Session, SessionError>
        if lock == nil, !planted(.skipLockAndReread), case .scheduled = reason, !machine.isExpired(session, now: clock.now) {
            // Rule D holds only under a timing assumption (docs/PROTOCOL.md,
            // "What the model found", 3): go on without the lock only for a
            // token that is already unusable, never for a proactive refresh.
            logger.notice("Not refreshing ahead of expiry without the store's lock; trying again later")
            apply(.retry(after: configuration.lockWait))
            result = .success(session)
        } else {
            result = await refreshLocked(
                from: session, reason: reason, generation: gen, holding: lock, attemptsLeft: 2)
        }
        await lock?.unlock()
        activity.end()
        if inflight?.id == flightID { inflight = nil }
        return result
    }

    /// - Parameter lock: `nil` when the lock wait ran out (rule D):
    ///   then every store write takes the lock again and re-reads first.
    private func refreshLocked(
        from session: Session, reason: RefreshReason, generation gen: UInt64, holding lock: HeldStoreLock?, attemptsLeft: Int
    ) async -> Result<Session, SessionError> {
        guard gen == generation else { return .failure(.notSignedIn) }
        var session = session
        // Another process may have refreshed while we waited for the lock.
        switch planted(.skipLockAndReread) ? .unchanged : await adoptStoredSessionIfNewer(than: session, generation: gen) {
        case .adopted(let adopted):
            if isSatisfied(reason, by: adopted), !machine.isExpired(adopted, now: clock.now) { return .success(adopted) }
            // Rule E: adopted, but already expired (it was written long ago): refresh it, still under the lock.
            session = adopted
        case .signedOutElsewhere:
            return .failure(.notSignedIn)
        case .unreadable(let error) where error.isDeviceLocked || error.isAwaitingAuthentication:
            // The store can be neither read nor written (a when-unlocked item on a locked
            // device, a background launch): a rotation now could not be saved, and a kill
            // would then present a token the server calls reused (docs/PROTOCOL.md, "The Keychain item").
            logger.notice("Not refreshing while the store is out of reach; trying again later")
            // Biometrics enrolled anew invalidated the record: the app is told (once: the state
            // changes once); the token in memory is used while valid, and the person signs in again.
            if error.lockReason == .biometryChanged { broadcaster.set(.locked(.biometryChanged)) }
            apply(.retry(after: Self.lockedStoreRetry))
            return .failure(
                SessionError.storeUnavailable.with(
                    message: "The session cannot be refreshed while the device is locked; it is kept.",
                    underlying: error.reason))
        case .unchanged, .unreadable:
            break
        }
        guard gen == generation else { return .failure(current == nil ? .notSignedIn : .cancelled) }
        // Rule G (docs/PROTOCOL.md, "What the model found", 1): never rotate on
        // top of a rotation that is not saved, or the store falls two behind
        // the server and a kill then presents a token the server calls reused.
        if pendingWrite != nil {
            await retryPendingWrite(holding: lock)
            guard gen == generation, let latest = current else { return .failure(.notSignedIn) }
            if pendingWrite != nil {
                logger.warning("The last refreshed session is still not saved; not refreshing on top of it")
                return .failure(
                    SessionError.persistenceFailed.with(
                        message: "The session could not be saved on this device yet; it is kept and saving is retried."))
            }
            session = latest
            if isSatisfied(reason, by: session), !machine.isExpired(session, now: clock.now) { return .success(session) }
        }
        logger.debug("Refreshing the session", metadata: ["refresh_token": "\(TokenRedaction.fingerprint(session.refreshToken))"])
        let sentAt = clock.now
        let outcome = await sendRefresh(refreshToken: session.refreshToken)
        guard gen == generation else {
            logger.info("Dropped a refresh result: the session ended or was replaced while it was in flight")
            return .failure(current == nil ? .notSignedIn : .cancelled)
        }
        switch outcome {
        case .success(let response):
            var refreshed = Session(response: response, serverNow: serverNow)
            // A body without `user` (and without claims naming one) keeps the person we know.
            if refreshed.user == nil { refreshed.user = session.user }
            if planted(.installBeforePersist) {
                installRefreshed(refreshed, sentAt: sentAt)
                broadcaster.publish(.tokenRefreshed(refreshed))
            }
            // Persist (verified) first, then publish.
            if !planted(.persistNothing) {
                switch await persistRefreshed(refreshed, replacing: session, generation: gen, holding: lock) {
                case .stands: break
                case .dropped: return .failure(current == nil ? .notSignedIn : .cancelled)
                case .adopted(let adopted): return .success(adopted)
                }
            }
            guard gen == generation else { return .failure(.notSignedIn) }
            if planted(.installBeforePersist) { return .success(refreshed) }
            installRefreshed(refreshed, sentAt: sentAt)
            logger.info("Refreshed the session", metadata: ["refresh_token": "\(TokenRedaction.fingerprint(refreshed.refreshToken))"])
            broadcaster.publish(.tokenRefreshed(refreshed))
            return .success(refreshed)
        case .alreadyUsed(let error), .terminal(let error):
            // Rule B: another process may have written a newer session (it refreshed
            // first, or signed in again): adopt it rather than end anything.
            switch await adoptStoredSessionIfNewer(than: session, generation: gen) {
            case .adopted(let adopted):
                if !machine.isExpired(adopted, now: clock.now) || attemptsLeft <= 1 { return .success(adopted) }
                return await refreshLocked(
                    from: adopted, reason: reason, generation: gen, holding: lock, attemptsLeft: attemptsLeft - 1)
            case .signedOutElsewhere:
                return .failure(.notSignedIn)
            case .unchanged, .unreadable:
                logger.notice("The server ended the session", metadata: ["reason": "\(error)"])
                _ = machine.refreshFailed(.terminal(error), now: clock.now, jitter: 0)
                broadcaster.publish(.refreshFailed(error, willRetry: false))
                await endSession(.expired(error), from: RefreshInFlight(lock: lock))
                return .failure(error)
            }
        case .transient(let error), .refused(let error):
            if planted(.transientEndsSession) {
                await endSession(.expired(.sessionExpired), from: RefreshInFlight(lock: lock))
                return .failure(.sessionExpired)
            }
            if planted(.forgetOnTransient) {
                current = nil
                return .failure(.notSignedIn)
            }
            if planted(.stickyFailure) { keepStuckFailure(error) }
            return .failure(refreshFailed(outcome, error: error, session: session))
        }
    }

    /// A refresh that did not end the session: keep it, back off, tell the app.
    func refreshFailed(_ outcome: RefreshOutcome, error: SessionError, session: Session) -> SessionError {
        let now = clock.now
        // `no-jitter` (planted): every retry waits its full ceiling, so a herd retries in step.
        let action = machine.refreshFailed(outcome, now: now, jitter: planted(.noJitter) ? 0.999_999 : configuration.jitter.unit())
        let willRetry = configuration.automaticRefresh && !isShutDown
        if case .refused = outcome {
            logger.warning(
                "The refresh was refused by something other than the auth server; keeping the session",
                metadata: ["reason": "\(error)"])
        } else if error == .network {
            logger.notice("The server is unreachable; keeping the session", metadata: ["reason": "\(error)"])
        } else {
            logger.warning("The refresh failed; keeping the session and retrying", metadata: ["reason": "\(error)"])
        }
        if let current = self.current {
            if machine.needsAttention(for: current, now: now) {
                broadcaster.set(.needsAttention(current, reason: error))
            } else if error == .network || machine.isExpired(current, now: now) {
                markOffline(current)
            }
        }
        broadcaster.publish(.refreshFailed(error, willRetry: willRetry))
        if case .retry(let delay) = action {
            startTimer(at: now.addingTimeInterval(delay), refreshToken: session.refreshToken)
        }
        return error
    }

    /// Sends the refresh request and reads the answer as the refresh-outcome table.
    func sendRefresh(refreshToken: String) async -> RefreshOutcome {
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
            var endingCodes = backend.sessionEndingCodes
            if planted(.ignoreLegacyEndTexts) {
                endingCodes.endedDescriptions = []
                endingCodes.alreadyUsedDescriptions = []
            }
            let outcome = ResponseClassifier.refreshOutcome(
                status: response.statusCode, body: data, headers: response, backend: backend, endingCodes: endingCodes)
            if case .success(let answer) = outcome { noteDroppedFields(of: answer) }
            return outcome
        }
    }
}
