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
        let request = try backend.request(for: .signIn(PasswordCredentials(email: email, password: password)))
        let data = try await sendUnauthorized(request, context: .signIn)
        let response = try BackendDecoding.validate(backend.decodeSession(data))
        let session = Session(response: response, serverNow: machine.offset.serverTime(at: clock.now))
        try await establish(session)
        return session
    }

    /// Creates an account; signs in when the server answers with a session.
    ///
    /// - Parameter data: initial user metadata.
    public func signUp(
        email: String, password: String, data: [String: JSONValue]? = nil
    ) async throws(SessionError) -> SignUpResult {
        let request = try backend.request(for: .signUp(PasswordCredentials(email: email, password: password, data: data)))
        let body = try await sendUnauthorized(request, context: .request)
        let sessionError: SessionError
        do {
            let response = try BackendDecoding.validate(backend.decodeSession(body))
            let session = Session(response: response, serverNow: machine.offset.serverTime(at: clock.now))
            try await establish(session)
            return .signedIn(session)
        } catch {
            if error != .decoding { throw error }
            sessionError = error
        }
        // GoTrue with email confirmation on answers with the user alone.
        do {
            return .confirmationRequired(try backend.decodeUser(body))
        } catch {
            throw sessionError
        }
    }

    /// Signs out.
    ///
    /// `.local` and `.global` end the session on this device at once (state
    /// `signedOut`, no error message) and tell the server; a server that
    /// cannot be reached does not keep anyone signed in here. `.others` ends
    /// the user's other sessions and keeps this one.
    ///
    /// - Throws: for `.global` and `.others`, the server's error if it could not
    ///   be told; ``SessionError/persistenceFailed`` if the stored session could not be deleted.
    public func signOut(scope: SignOutScope = .local) async throws(SessionError) {
        if current == nil {
            // Not restored (a CLI run, say): sign out what the store holds, server included.
            await adoptStoredSessionForSignOut()
        }
        guard var session = current else {
            // Nothing in memory or the store; make sure nothing is left on disk either.
            try await clearStore()
            broadcaster.set(.signedOut)
            return
        }
        if scope == .others {
            _ = try await authorizedSend(try backend.request(for: .signOut(.others)))
            return
        }
        if scope == .global, machine.isExpired(session, now: clock.now) {
            do {
                session = try await refreshSession(reason: .expired)
            } catch {
                // The server will reject the expired token; we sign out here anyway.
                logger.notice("Could not refresh before a global sign-out", metadata: ["reason": "\(error.message)"])
            }
        }
        guard current != nil else { return }
        await endSession(.signedOut, clearStore: false)
        var serverError: SessionError?
        do {
            var request = try backend.request(for: .signOut(scope))
            request.setValue("Bearer \(session.accessToken)", forHTTPHeaderField: "Authorization")
            switch await sendObserved(request) {
            case .failure(let error): serverError = error
            case .success(let (data, response)):
                // 401/403/404: the session is already gone on the server, which is the goal.
                if !(200..<300).contains(response.statusCode), ![401, 403, 404].contains(response.statusCode) {
                    serverError = ResponseClassifier.error(
                        status: response.statusCode, body: data, headers: response, context: .request)
                }
            }
        } catch {
            serverError = error
        }
        // Let an in-flight refresh settle, so its write cannot land after the delete.
        if let flight = inflight { _ = await flight.task.value }
        try await clearStore()
        if let serverError {
            logger.notice("Signed out on this device; the server could not be told", metadata: ["reason": "\(serverError)"])
            if scope == .global { throw serverError }
        } else {
            logger.info("Signed out", metadata: ["scope": "\(scope.rawValue)"])
        }
    }

    private func adoptStoredSessionForSignOut() async {
        do {
            guard let record = try await store.load(), record.holdsSession else { return }
            generation += 1
            current = record.session
            lastStoredRefreshToken = record.refreshToken
        } catch {
            // Unreadable (a corrupt record is already moved aside): only the local clear remains.
            logger.notice("The stored session could not be read for sign-out", metadata: ["reason": "\(error)"])
        }
    }

    /// Saves a new session (verified), then makes it current and publishes `signedIn`.
    func establish(_ session: Session) async throws(SessionError) {
        // Invalidate anything in flight for the previous session first.
        generation += 1
        let record = StoredSession(session)
        do {
            try await store.save(record)
        } catch {
            logger.error("The new session could not be saved; not signing in", metadata: ["reason": "\(error)"])
            throw SessionError.persistenceFailed.with(
                message: "Signed in, but the session could not be saved on this device. Please try again.",
                underlying: error.reason)
        }
        lastStoredRefreshToken = record.refreshToken
        pendingWrite = nil
        writeRetryTask?.cancel()
        pkceVerifier = nil
        isOffline = false
        current = session
        broadcaster.set(.signedIn(session))
        broadcaster.publish(.signedIn(session))
        logger.info("Signed in", metadata: ["user": "\(session.user?.id ?? "-")"])
        apply(machine.sessionChanged(to: session, now: clock.now))
    }

    enum EndReason {
        /// The server ended it: `expired`, with the message, once.
        case expired
        /// The server wants credentials, or another process signed out: `signedOut`, no message.
        case silently
        /// The person signed out.
        case signedOut
    }

    /// Ends the session in memory (and, unless told otherwise, in the store).
    func endSession(_ reason: EndReason, clearStore shouldClear: Bool = true) async {
        guard current != nil else { return }
        generation += 1
        current = nil
        pendingWrite = nil
        lastStoredRefreshToken = nil
        isOffline = false
        timer?.cancel()
        timer = nil
        writeRetryTask?.cancel()
        switch reason {
        case .expired:
            broadcaster.set(.expired(reason: SessionError.sessionExpiredMessage))
            broadcaster.publish(.sessionExpired(message: SessionError.sessionExpiredMessage))
        case .silently, .signedOut:
            broadcaster.set(.signedOut)
            broadcaster.publish(.signedOut)
        }
        if shouldClear {
            do {
                try await clearStore()
            } catch {
                // The dead session would be restored at next launch and end there again.
                logger.error("The ended session could not be deleted from the store", metadata: ["reason": "\(error)"])
            }
        }
    }

    func clearStore() async throws(SessionError) {
        do {
            try await store.clear()
        } catch {
            logger.error("The stored session could not be deleted", metadata: ["reason": "\(error)"])
            throw SessionError.persistenceFailed.with(
                message: "The session could not be deleted from this device.", underlying: error.reason)
        }
    }
}
