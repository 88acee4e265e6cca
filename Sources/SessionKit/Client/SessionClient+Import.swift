import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Adopting a session the app already holds, as supabase-swift's `setSession`:
/// for apps that kept their own tokens before SessionKit (a UserDefaults
/// blob, say; ``LegacySessionMigration`` is the recipe).
extension SessionClient {
    /// Validates tokens the app already holds and makes them this client's
    /// session, saved (verified) in the store.
    ///
    /// - An access token that has not expired is confirmed with the server
    ///   (the user endpoint, with that token). If the server rejects it, or
    ///   its expiry is unknown (an opaque token and no `expiresAt`) or past,
    ///   the refresh token is used once; its answer decides.
    /// - A refresh the server refuses for good (the refresh token ended,
    ///   reused, the account suspended) throws that typed error, and nothing
    ///   is stored: the client's own session, if any, is left as it was.
    /// - When the server cannot be asked right now (offline, 5xx, something
    ///   in between refusing), the imported tokens are kept, saved, and the
    ///   state is `offline` (or `signedIn` when the access token is still
    ///   valid): importing never signs anyone out. The refresh is retried
    ///   with backoff.
    ///
    /// When the refresh succeeded the imported refresh token is spent, so if
    /// the new session then cannot be saved it is kept in memory and saving
    /// is retried (a ``SessionEvent/persistenceFailed(_:)`` event), as for an
    /// OAuth callback. Otherwise a failed save throws
    /// ``SessionError/persistenceFailed`` with nothing changed.
    ///
    /// - Parameters:
    ///   - accessToken: the access token the app holds.
    ///   - refreshToken: its refresh token.
    ///   - expiresAt: when the access token expires, if the app kept it
    ///     (`nil`: unknown). A JWT's own `exp` wins over it.
    ///   - user: the person, if the app kept them; the server's answer replaces it.
    /// - Returns: the session now in place.
    /// The import is one flight: a second import of the same refresh token
    /// while one runs (several windows running the migration at launch) joins
    /// it, and it runs in a task of its own, so a cancelled caller (a SwiftUI
    /// `.task` torn down) cannot cancel a refresh the server has already
    /// committed. Its refresh runs under the store's lock, after a re-read: a
    /// session another process saved meanwhile is adopted instead.
    ///
    /// - Throws: ``SessionError/invalidRequest`` (malformed tokens; the message
    ///   names which), ``SessionError/sessionExpired``, ``SessionError/accountSuspended``,
    ///   or ``SessionError/persistenceFailed``.
    @discardableResult
    public func importSession(
        accessToken: String, refreshToken: String, expiresAt: Date?, user: SessionUser? = nil
    ) async throws(SessionError) -> Session {
        if let flight = importFlight, flight.refreshToken == refreshToken {
            logger.info("Joining the import of the same session already in progress")
            return try await flight.task.value.get()
        }
        let task = Task { () async -> Result<Session, SessionError> in
            do throws(SessionError) {
                return .success(
                    try await self.performImport(
                        accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt, user: user))
            } catch {
                return .failure(error)
            }
        }
        importFlight = ImportFlight(refreshToken: refreshToken, task: task)
        let result = await task.value
        if importFlight?.task == task { importFlight = nil }
        return try result.get()
    }

    /// One import in progress, keyed by the refresh token it imports.
    struct ImportFlight {
        let refreshToken: String
        let task: Task<Result<Session, SessionError>, Never>
    }

    private func performImport(
        accessToken: String, refreshToken: String, expiresAt: Date?, user: SessionUser?
    ) async throws(SessionError) -> Session {
        let tokens = try ImportedTokens(
            accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt,
            serverNow: machine.offset.serverTime(at: clock.now))
        if tokens.expiryDisagrees {
            logger.notice("The imported expiry differs from the access token's own; using the token's")
        }
        await waitForRunningRestore()
        let serverNow = machine.offset.serverTime(at: clock.now)
        // An unknown expiry is "due now": refreshed before anything trusts it.
        let session = Session(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
            expiresAt: tokens.expiresAt ?? serverNow, lifetime: tokens.lifetime, user: user ?? tokens.claimedUser)
        logger.info("Importing a session", metadata: ["refresh_token": "\(TokenRedaction.fingerprint(session.refreshToken))"])

        if tokens.expiresAt != nil, !machine.isExpired(session, now: clock.now) {
            switch await confirmImported(session) {
            case .confirmed(let confirmedUser):
                var confirmed = session
                if let confirmedUser { confirmed.user = confirmedUser }
                try await establish(confirmed)
                return current ?? confirmed
            case .unanswered(let error):
                // The server could not say; a valid token stands until it can.
                logger.notice("The imported session could not be confirmed now; keeping it", metadata: ["reason": "\(error)"])
                try await establish(session)
                if error == .network, let current { markOffline(current) }
                return current ?? session
            case .rejected:
                // The refresh token is the arbiter: the server's answer to it decides.
                logger.notice("The server rejected the imported access token; refreshing once")
            }
        }
        return try await refreshImported(session)
    }

    /// Signs in with tokens your own backend obtained, as supabase-swift's
    /// `setSession` does: the lifetime is `expiresIn` seconds from now, or,
    /// without it, the access token's own `exp`.
    ///
    /// Everything else is ``importSession(accessToken:refreshToken:expiresAt:user:)``:
    /// the session is confirmed with the server, or refreshed, before it is kept.
    ///
    /// - Parameters:
    ///   - accessToken: the access token.
    ///   - refreshToken: its refresh token.
    ///   - expiresIn: seconds the access token is valid from now (a token
    ///     response's `expires_in`); `nil` reads the JWT's `exp`.
    ///   - user: the person, if known.
    @discardableResult
    public func importSession(
        accessToken: String, refreshToken: String, expiresIn: TimeInterval? = nil, user: SessionUser? = nil
    ) async throws(SessionError) -> Session {
        // In the server's time, as every stored expiry is: the device clock may be off.
        let expiresAt = expiresIn.map { machine.offset.serverTime(at: clock.now).addingTimeInterval($0) }
        return try await importSession(accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt, user: user)
    }

    private enum ImportConfirmation {
        /// The server answered for the token (`nil`: this backend has no user endpoint to ask).
        case confirmed(SessionUser?)
        /// The server could not be asked, or its answer says nothing about the token.
        case unanswered(SessionError)
        /// The server (or something in between) refused the token.
        case rejected
    }

    /// Asks the user endpoint who the imported access token belongs to.
    private func confirmImported(_ session: Session) async -> ImportConfirmation {
        var request: URLRequest
        do {
            request = try backend.request(for: .currentUser)
        } catch {
            // No user endpoint (a custom backend without `meURL`): the expiry alone decides, as `.skip` does.
            return .confirmed(nil)
        }
        request.setValue("Bearer \(session.accessToken)", forHTTPHeaderField: "Authorization")
        let data: Data
        let response: HTTPURLResponse
        switch await sendObserved(request) {
        case .failure(let error):
            return .unanswered(error)
        case .success(let answer):
            (data, response) = answer
        }
        if Self.rejectsToken(response, data) { return .rejected }
        guard (200..<300).contains(response.statusCode) else {
            let error = ResponseClassifier.error(status: response.statusCode, body: data, headers: response, context: .request)
            return error.isTransient ? .unanswered(error) : .rejected
        }
        do {
            return .confirmed(try backend.decodeUser(data))
        } catch {
            // A 200 that is not a user (a captive portal's page) proves nothing either way.
            return .unanswered(error)
        }
    }

    /// Refreshes the imported session once, under the store's lock (bounded,
    /// as a refresh's), after a re-read: another client on the same store (a
    /// second window's, an extension's) may have imported it, or signed in, meanwhile.
    private func refreshImported(_ session: Session) async throws(SessionError) -> Session {
        // Held while the lock is, as a refresh: a suspended app must not sit on the lock.
        let activity = configuration.backgroundActivity.begin("SessionKit import")
        let lock = await takeLock(for: "import")
        let result: Result<Session, SessionError>
        do {
            result = .success(try await refreshImportedLocked(session, lockHeld: lock != nil))
        } catch {
            result = .failure(error)
        }
        await lock?.unlock()
        activity.end()
        return try result.get()
    }

    /// The store's session, if it holds one now.
    private func storedSessionForImport() async -> StoredSession? {
        await withStoreAccess {
            do {
                let stored = try await store.load()
                return stored?.holdsSession == true ? stored : nil
            } catch {
                // Unreadable now: nothing to adopt; the import goes on as it would have.
                logger.notice("The store could not be re-read before an import's refresh", metadata: ["reason": "\(error)"])
                return nil
            }
        }
    }

    private func refreshImportedLocked(_ session: Session, lockHeld: Bool) async throws(SessionError) -> Session {
        // Only a session this client has not seen is news: importing over our own session replaces it.
        if let stored = await storedSessionForImport(), current.map({ isNewer(stored, than: $0) }) ?? true {
            logger.info("Another client saved a session meanwhile; adopting it instead of refreshing the imported one")
            generation += 1
            hasRestored = true
            return adopt(stored)
        }
        let outcome = await sendRefresh(refreshToken: session.refreshToken)
        switch outcome {
        case .success(let response):
            var refreshed = Session(response: response, serverNow: machine.offset.serverTime(at: clock.now))
            if refreshed.user == nil { refreshed.user = session.user }
            // The imported refresh token is spent: the new tokens exist only here now.
            try await establish(refreshed, keepingUnsaved: true, lockHeld: lockHeld)
            logger.info("Imported the session with a refresh", metadata: ["refresh_token": "\(TokenRedaction.fingerprint(refreshed.refreshToken))"])
            return current ?? refreshed
        case .terminal(let error), .alreadyUsed(let error):
            // The server's own verdict: these tokens are over. Nothing was stored.
            logger.notice("The server refused the imported session; nothing was stored", metadata: ["reason": "\(error)"])
            throw error
        case .transient(let error), .refused(let error):
            logger.notice("The imported session could not be refreshed now; keeping it and retrying", metadata: ["reason": "\(error)"])
            try await establish(session, lockHeld: lockHeld)
            // `establish` scheduled a refresh for now; the failure just seen replaces it
            // with a backoff. A new generation drops that timer even if it already woke.
            generation += 1
            let now = clock.now
            let action = machine.refreshFailed(outcome, now: now, jitter: configuration.jitter.unit())
            if let current { markOffline(current) }
            broadcaster.publish(.refreshFailed(error, willRetry: configuration.automaticRefresh && !isShutDown))
            if case .retry(let delay) = action {
                startTimer(at: now.addingTimeInterval(delay), refreshToken: session.refreshToken)
            }
            return current ?? session
        }
    }
}
