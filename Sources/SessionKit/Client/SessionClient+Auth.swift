import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Signing in, up and out.
extension SessionClient {
    /// Signs in with email and password; the session is saved (verified) before this returns.
    ///
    /// - Throws: ``SessionError/invalidCredentials``, ``SessionError/rateLimited``,
    ///   ``SessionError/network``, or ``SessionError/persistenceFailed`` when the
    ///   session could not be saved (then nothing changed: try again).
    @discardableResult
    public func signIn(email: String, password: String) async throws(SessionError) -> Session {
        try await PasswordSignIn().signIn(email: email, password: password, on: self)
    }

    /// Creates an account; signs in when the server answers with a session.
    ///
    /// - Parameters:
    ///   - email: the account's email address.
    ///   - password: its password.
    ///   - data: initial user metadata.
    public func signUp(
        email: String, password: String, data: [String: JSONValue]? = nil
    ) async throws(SessionError) -> SignUpResult {
        try await PasswordSignIn().signUp(email: email, password: password, data: data, on: self)
    }

    /// Signs out.
    ///
    /// `.local` and `.global` end the session on this device at once (state
    /// `signedOut`, no error message, the stored record deleted) and then
    /// tell the server; a server that cannot be reached does not keep anyone
    /// signed in here. `.others` ends the user's other sessions and keeps this one.
    ///
    /// - Throws: ``SessionError/signOutIncomplete`` for `.global` when the
    ///   server did not confirm that the other devices were signed out; for
    ///   `.others`, the server's error; ``SessionError/persistenceFailed`` if
    ///   the stored session could not be deleted.
    public func signOut(scope: SignOutScope = .local) async throws(SessionError) {
        try await endSession(signingOut: scope)
    }

    /// Signing out, the engine's part: ends the session here first, then tells the server.
    /// An anonymous session is refused (``SessionError/anonymousAccountWouldBeLost``).
    func endSession(signingOut scope: SignOutScope) async throws(SessionError) {
        try await endSession(signingOut: scope, discardingAnonymousAccount: false)
    }

    /// - Parameter discarding: the app said the person means to throw an anonymous account away.
    func endSession(signingOut scope: SignOutScope, discardingAnonymousAccount discarding: Bool) async throws(SessionError) {
        await waitForRunningRestore()
        if current == nil {
            // Not restored (a CLI run, say): sign out what the store holds, server included.
            await adoptStoredSessionForSignOut()
        }
        // The only way back into an anonymous account is this session: ending it by accident loses it for good
        // (docs/ACCOUNTS.md, "Anonymous users (SDK)"). `.others` keeps this session, so it needs no word.
        if scope != .others, !discarding, let session = current, session.isAnonymous {
            logger.notice("Refused to sign out an anonymous session without the app's acknowledgement")
            throw SessionError.anonymousAccountWouldBeLost
        }
        guard var session = current else {
            // Nothing in memory or the store; make sure nothing is left on disk either.
            forgetLegacySessions()
            if let error = await clearStoredSession(ended: nil) { throw error }
            hasRestored = true
            broadcaster.set(.signedOut)
            return
        }
        if scope == .others {
            _ = try await authorizedSend(try backend.request(for: .signOut(.others)))
            return
        }
        // A leftover blob must never sign this person back in (docs/PROTOCOL.md, "What each failure does").
        forgetLegacySessions()
        if scope == .global, machine.isExpired(session, now: clock.now) {
            do {
                session = try await refreshSession(reason: .expired, honouringBackoff: false)
            } catch {
                // The server will reject the expired token; this device signs out anyway.
                logger.notice("Could not refresh before a global sign-out", metadata: ["reason": "\(error.message)"])
            }
        }
        // The refresh may have ended or replaced the session while it ran.
        guard let latest = current else { return }
        session = latest
        await endSession(.signedOut, clearStore: false)
        // Local first: the record is gone before the (maybe slow) server call,
        // so a sign-in made meanwhile is never wiped by this sign-out.
        let clearError = await clearStoredSession(ended: session)
        let serverError = await tellServerSignedOut(session, scope: scope)
        if let clearError { throw clearError }
        if let serverError {
            logger.notice("Signed out on this device; the server could not be told", metadata: ["reason": "\(serverError)"])
            if scope == .global {
                throw SessionError.signOutIncomplete.with(status: serverError.status, underlying: serverError.message)
            }
        } else {
            logger.info("Signed out", metadata: ["scope": "\(scope.rawValue)"])
        }
    }

    /// Sends the logout. For `.global` only a 2xx counts: a 401/403/404 means
    /// the server did not sign anyone out with this token.
    private func tellServerSignedOut(_ session: Session, scope: SignOutScope) async -> SessionError? {
        let request: URLRequest
        do {
            request = try backend.request(for: .signOut(scope))
        } catch {
            return error
        }
        var authorized = request
        authorized.setValue(authorization(for: session), forHTTPHeaderField: "Authorization")
        switch await sendObserved(authorized) {
        case .failure(let error):
            return error
        case .success(let (data, response)):
            if (200..<300).contains(response.statusCode) { return nil }
            // For this device, 401/403/404 mean the session is already gone on the server: the goal.
            if scope != .global, [401, 403, 404].contains(response.statusCode) { return nil }
            return ResponseClassifier.error(status: response.statusCode, body: data, headers: response, context: .request)
        }
    }

    private func adoptStoredSessionForSignOut() async {
        let read: Result<StoredSession?, SessionStoreError> = await guardedLoad()
        guard current == nil else { return }
        switch read {
        case .success(let record):
            guard let record, record.holdsSession else { return }
            generation += 1
            current = record.session
            noteWritten(record)
        case .failure(let error):
            // Unreadable (a corrupt record is already moved aside): only the local clear remains.
            logger.notice("The stored session could not be read for sign-out", metadata: ["reason": "\(error)"])
        }
    }

    /// Saves a new session (verified, as the store's next record), then makes it current and publishes `signedIn`.
    ///
    /// - Parameter keepingUnsaved: when the tokens cannot be had again (an
    ///   OAuth code is spent once), a failed save keeps them in memory and
    ///   retries the write instead of throwing.
    ///   - lock: the store's lock the caller already holds (an import's refresh).
    @discardableResult
    func establish(_ session: Session, keepingUnsaved: Bool, holding lock: HeldStoreLock?) async throws(SessionError) -> SessionGeneration {
        // A sign-in is a first use too: the lifecycle is followed from here (refresh on resume, last-chance save).
        startObservingLifecycle()
        // Invalidate anything in flight for the previous session first.
        generation += 1
        let gen = generation
        inflight?.task.cancel()
        timer?.cancel()
        writeRetryTask?.cancel()
        pendingWrite = nil
        let record: StoredSession
        switch await saveNewSession(session, holding: lock) {
        case .success(let saved):
            record = saved
        case .failure(let error) where keepingUnsaved && gen == generation:
            logger.error("The new session could not be saved; keeping it in memory and retrying", metadata: ["reason": "\(error)"])
            record = StoredSession(session, sequence: nextSequence(after: nil))
            pendingWrite = record
            broadcaster.publish(.persistenceFailed(SessionError.persistenceFailed.with(underlying: error.reason)))
            startWriteRetry()
        case .failure(let error):
            logger.error("The new session could not be saved; not signing in", metadata: ["reason": "\(error)"])
            throw SessionError.persistenceFailed.with(
                message: "Signed in, but the session could not be saved on this device. Please try again.",
                underlying: error.reason)
        }
        guard gen == generation else {
            // Signed out (or in again) while this was saved: that came later and wins.
            logger.notice("A sign-in was overtaken by a later sign-in or sign-out while it was saved")
            if current == nil { _ = await clearStoredSession(ended: session) }
            throw SessionError.cancelled.with(message: "The sign-in was overtaken by a later sign-in or sign-out.")
        }
        if pendingWrite == nil { lastStoredRefreshToken = record.refreshToken }
        pendingOAuth = nil
        isOffline = false
        hasRestored = true
        current = session
        broadcaster.set(.signedIn(session))
        broadcaster.publish(.signedIn(session))
        logger.info("Signed in", metadata: ["user": "\(session.user?.id ?? "-")"])
        apply(machine.sessionChanged(to: session, now: clock.now))
        return currentGeneration
    }

    enum EndReason {
        /// The server ended it: `expired` with the error's message (session over, or account suspended), once.
        case expired(SessionError)
        /// The server wants credentials, or another process signed out: `signedOut`, no message.
        case silently
        /// The person signed out.
        case signedOut
    }

    /// Ends the session in memory (and, unless told otherwise, in the store,
    /// if the store still holds it).
    ///
    /// - Parameters:
    ///   - flight: the caller is the refresh flight itself (which must not
    ///     cancel itself), with the store's lock if it holds it.
    func endSession(
        _ reason: EndReason, clearStore shouldClear: Bool = true, from flight: RefreshInFlight? = nil
    ) async {
        guard let ended = current else { return }
        generation += 1
        current = nil
        pendingWrite = nil
        lastStoredRefreshToken = nil
        isOffline = false
        timer?.cancel()
        timer = nil
        writeRetryTask?.cancel()
        validation?.cancel()
        // A refresh still in flight for the ended session is abandoned (its
        // result would be dropped anyway) so it lets go of the store's lock.
        if flight == nil { inflight?.task.cancel() }
        let endedGeneration = generation
        // Saved first, then announced, as a refresh is: a process killed while the
        // end is being written has told nobody, and its next launch ends the
        // session and says so once. Announced first, the app heard it twice
        // (docs/PROTOCOL.md, "What each failure does").
        if shouldClear, let error = await clearStoredSession(ended: ended, holding: flight?.lock) {
            // The dead session would be restored at next launch and end there again.
            logger.error("The ended session could not be deleted from the store", metadata: ["reason": "\(error)"])
        }
        // A session established while the end was written (a new sign-in) stands.
        guard generation == endedGeneration else { return }
        switch reason {
        case .expired(let error):
            broadcaster.setExpired(by: error)
            if !planted(.silentEnd) { broadcaster.publish(.sessionExpired(message: error.message)) }
        case .silently, .signedOut:
            broadcaster.set(.signedOut)
            broadcaster.publish(.signedOut)
        }
    }
}
