import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Signing in with an OAuth provider (Strava and the like), with PKCE.
///
/// ```swift
/// let url = try await client.signInWithOAuth(provider: "strava", redirectTo: URL(string: "myapp://oauth")!)
/// // open `url` (ASWebAuthenticationSession, or a browser from a CLI); when the app receives the redirect:
/// let session = try await client.handleOAuthCallback(callbackURL)
/// ```
///
/// The flow ends with a verified, stored session (confirmed with the server,
/// or being confirmed in the background when it could not answer) or a typed
/// ``SessionError`` with nothing stored.
extension SessionClient {
    /// How long after it started a token-style callback is still accepted.
    static let oauthCallbackWindow: TimeInterval = 30 * 60

    /// Starts an OAuth sign-in and returns the URL to open.
    ///
    /// A new PKCE verifier and a random `state` are saved in the store
    /// (verified, as its next record, beside the stored session if there is
    /// one) before this returns, so the flow survives the app being killed
    /// while the browser is open. A loopback `redirectTo`
    /// (`http://127.0.0.1:PORT/callback`) works for CLIs.
    ///
    /// - Parameters:
    ///   - provider: the provider's name on the server (`strava`).
    ///   - redirectTo: where the server sends the person back; must be on the server's allow-list.
    ///   - scopes: scopes to ask for; empty uses the server's defaults for the provider.
    /// - Throws: ``SessionError/unsupported`` (backend without OAuth),
    ///   ``SessionError/storeUnavailable`` or ``SessionError/persistenceFailed`` (nothing started).
    public func signInWithOAuth(provider: String, redirectTo: URL, scopes: [String] = []) async throws(SessionError) -> URL {
        guard !provider.isEmpty else { throw SessionError.invalidRequest.with(message: "The provider name is empty.") }
        // The verifier is written beside the stored session: know it first (and report it).
        try await ensureRestored()
        let pending = PendingOAuth(verifier: PKCE.makeVerifier(), state: PKCE.makeVerifier(), startedAt: clock.now)
        let url = try backend.authorizationURL(
            for: OAuthAuthorizationRequest(
                provider: provider, redirectTo: redirectTo, scopes: scopes,
                codeChallenge: PKCE.challenge(for: pending.verifier), state: pending.state))
        enum Outcome: Sendable {
            case saved(StoredSession)
            case unreadable(SessionStoreError)
            case unwritable(SessionStoreError)
        }
        let memory = pendingWrite ?? current.map { StoredSession($0) }
        let outcome: Outcome = await withStoreLock("starting an OAuth sign-in") { await withStoreAccess {
            // Re-read under the lock: write the verifier beside what the store
            // holds now, never beside an older session from memory.
            let stored: StoredSession?
            do throws(SessionStoreError) {
                stored = try await store.load()
            } catch {
                return .unreadable(error)
            }
            var record: StoredSession
            if let stored, stored.holdsSession, memory.map({ stored.sequence >= $0.sequence }) ?? true {
                record = stored
            } else if let memory {
                record = memory
            } else {
                record = .pendingOAuth(verifier: pending.verifier)
            }
            record.pkceVerifier = pending.verifier
            record.oauthState = pending.state
            record.oauthStartedAt = pending.startedAt
            record.sequence = nextSequence(after: stored)
            do throws(SessionStoreError) {
                try await store.save(record)
            } catch {
                return .unwritable(error)
            }
            noteWritten(record)
            return .saved(record)
        } }
        switch outcome {
        case .unreadable(let error):
            logger.error("The store could not be read to start an OAuth sign-in", metadata: ["reason": "\(error)"])
            throw SessionError.storeUnavailable.with(underlying: error.reason)
        case .unwritable(let error):
            logger.error("The OAuth verifier could not be saved; not starting the sign-in", metadata: ["reason": "\(error)"])
            throw SessionError.persistenceFailed.with(
                message: "The sign-in could not be prepared on this device. Please try again.", underlying: error.reason)
        case .saved(let record):
            if record.holdsSession, let current, record.refreshToken != current.refreshToken {
                // The store was ahead of memory (another process refreshed): what was written is now ours.
                adopt(record)
            } else {
                noteWritten(record)
            }
            // The unsaved session (if any) was the one written.
            if record.holdsSession, record.refreshToken == pendingWrite?.refreshToken { pendingWrite = nil }
        }
        pendingOAuth = pending
        logger.info("OAuth sign-in started", metadata: ["provider": "\(provider)"])
        return url
    }

    /// Finishes an OAuth sign-in from the redirect the app received.
    ///
    /// Reads `code` (PKCE) or, from backends that return them directly,
    /// `access_token`, `refresh_token`, `expires_in`, `user_id` and `state`,
    /// in the query or the fragment. The new session is confirmed with the
    /// server (`/v1/auth/me`, or `/auth/v1/user` where the server has no
    /// gateway) before it replaces the current one, then saved (verified).
    /// A confirmation that names another user, or that the server refuses,
    /// throws and leaves the session the person already had untouched. One
    /// that times out or meets a 5xx keeps the new session (the code is
    /// spent: the tokens cannot be had again) and is retried in the background.
    ///
    /// Token-style callbacks are accepted only while a sign-in started by
    /// this client is pending, within 30 minutes, with the `state` it saved:
    /// otherwise any web page could sign the person into someone else's account.
    ///
    /// - Throws: ``SessionError/oauthDenied``, ``SessionError/oauthFailed``,
    ///   ``SessionError/oauthCallbackInvalid`` (the message names the field),
    ///   ``SessionError/oauthFlowUnknown`` (not started here, or the code was
    ///   already used), ``SessionError/oauthFlowExpired``,
    ///   ``SessionError/oauthVerifierMismatch``, or a network/server/persistence
    ///   error before the tokens were in hand. In every such case nothing is
    ///   stored and an existing session is left as it was.
    @discardableResult
    public func handleOAuthCallback(_ url: URL) async throws(SessionError) -> Session {
        let callback: OAuthCallback
        do {
            callback = try OAuthCallback.parse(url)
        } catch {
            logger.notice("The OAuth callback was refused", metadata: ["reason": "\(error.field ?? error.error ?? "unreadable")"])
            throw Self.sessionError(for: error)
        }
        await waitForRunningRestore()
        let serverNow = machine.offset.serverTime(at: clock.now)
        var session: Session
        let expectedID: String?
        switch callback.result {
        case .code(let code):
            let response = try await exchange(code: code)
            session = Session(response: response, serverNow: serverNow)
            expectedID = response.user?.id
        case .tokens(let tokens):
            try await checkPendingFlow(for: tokens)
            try Self.checkSubject(of: tokens)
            session = Session(
                accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                expiresAt: tokens.expiresAt.map { Date(timeIntervalSince1970: TimeInterval($0)) }
                    ?? serverNow.addingTimeInterval(TimeInterval(tokens.expiresIn)),
                lifetime: TimeInterval(tokens.expiresIn))
            expectedID = tokens.userID
        }
        // Confirmed before it replaces anything: a refused confirmation must
        // leave the session the person already has exactly as it was.
        let confirmation: Result<SessionUser, SessionError>
        do {
            confirmation = .success(try await confirm(session))
        } catch {
            confirmation = .failure(error)
        }
        switch confirmation {
        case .success(let user):
            if let expectedID, expectedID != user.id {
                logger.error("The confirmed user is not the one the callback named; the current session is untouched")
                throw SessionError.oauthCallbackInvalid.with(
                    message: "The sign-in callback's user_id does not match the signed-in user. Please start the sign-in again.")
            }
            session.user = user
            // The code is spent: a failed save keeps the tokens in memory and retries.
            try await establish(session, keepingUnsaved: true)
            return current ?? session
        case .failure(let error) where error.isTransient:
            // The server could not say right now; the tokens cannot be had
            // again, so the session stands until it can, confirmed in the background.
            logger.notice("The new OAuth session could not be confirmed yet; keeping it and retrying", metadata: ["reason": "\(error)"])
            try await establish(session, keepingUnsaved: true)
            let gen = generation
            validation = Task { [weak self] in await self?.confirmLater(generation: gen) }
            return current ?? session
        case .failure(let error):
            // Refused by the server (the tokens are not good): nothing to keep, nothing replaced.
            logger.notice("The server refused the new OAuth session; the current session is untouched", metadata: ["reason": "\(error)"])
            throw error
        }
    }

    /// Retries the confirmation of a new OAuth session with backoff until the server answers.
    private func confirmLater(generation gen: UInt64) async {
        var attempt = 0
        while gen == generation, let session = current, !isShutDown {
            attempt += 1
            do {
                try await clock.sleep(for: configuration.backoff.delay(attempt: attempt, jitter: configuration.jitter.unit()))
            } catch {
                return  // cancelled: the session ended or the client shut down
            }
            guard gen == generation else { return }
            do {
                let user = try await confirm(session)
                if gen == generation { await replaceUser(with: user) }
                return
            } catch where error.isTransient {
                continue
            } catch {
                logger.notice("The server refused the new OAuth session; signing out", metadata: ["reason": "\(error)"])
                if gen == generation { await endSession(.silently) }
                return
            }
        }
    }

    /// A token-style callback must answer a sign-in started here, recently, with its `state`.
    private func checkPendingFlow(for tokens: OAuthCallback.Tokens) async throws(SessionError) {
        let pending = try await loadPendingOAuth()
        guard let pending else {
            logger.notice("Tokens arrived in an OAuth callback, but no sign-in was started here")
            throw SessionError.oauthFlowUnknown
        }
        if let startedAt = pending.startedAt, clock.now.timeIntervalSince(startedAt) > Self.oauthCallbackWindow {
            throw SessionError.oauthFlowExpired
        }
        guard let expected = pending.state, let state = tokens.state, state == expected else {
            logger.notice("An OAuth callback's state does not match the sign-in started here; refused")
            throw SessionError.oauthCallbackInvalid.with(
                message: "The sign-in callback does not belong to the sign-in started here. Please start the sign-in again.",
                underlying: "field: state")
        }
    }

    /// The sign-in in progress, from memory or (after the app was killed) the store.
    private func loadPendingOAuth() async throws(SessionError) -> PendingOAuth? {
        if let pendingOAuth { return pendingOAuth }
        do {
            return PendingOAuth(try await store.load())
        } catch {
            throw SessionError.storeUnavailable.with(underlying: error.reason)
        }
    }

    /// `grant_type=pkce` with the stored verifier.
    private func exchange(code: String) async throws(SessionError) -> TokenResponse {
        // The app may have been killed while the browser was open and not restored yet.
        guard let verifier = try await loadPendingOAuth()?.verifier else {
            logger.notice("An OAuth callback arrived but no sign-in was started here")
            throw SessionError.oauthFlowUnknown
        }
        let request = try backend.request(for: .exchangeCode(PKCETokenRequest(authCode: code, codeVerifier: verifier)))
        let (data, response) = try await sendObserved(request).get()
        guard (200..<300).contains(response.statusCode) else {
            throw Self.exchangeError(status: response.statusCode, body: data, response: response)
        }
        return try BackendDecoding.validate(backend.decodeSession(data))
    }

    /// Asks the server who the new session belongs to, with the new access token.
    private func confirm(_ session: Session) async throws(SessionError) -> SessionUser {
        let (data, response) = try await sendBearer(try backend.request(for: .confirmSession), token: session.accessToken)
        if response.statusCode == 404 {
            // A GoTrue server without the gateway (hosted Supabase): GoTrue's own user endpoint.
            logger.info("No gateway /v1/auth/me; confirming the OAuth session with /auth/v1/user")
            let (userData, userResponse) = try await sendBearer(try backend.request(for: .currentUser), token: session.accessToken)
            return try backend.decodeUser(try Self.check(userData, userResponse).0)
        }
        return try backend.decodeUser(try Self.check(data, response).0)
    }

    private func sendBearer(_ request: URLRequest, token: String) async throws(SessionError) -> (Data, HTTPURLResponse) {
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return try await sendObserved(request).get()
    }

    /// A JWT access token must belong to the callback's `user_id`.
    static func checkSubject(of tokens: OAuthCallback.Tokens) throws(SessionError) {
        let claims: JWTClaims
        do {
            claims = try UnverifiedJWT(tokens.accessToken).claims
        } catch {
            // An opaque (non-JWT) access token carries no claims; the server confirms it next.
            return
        }
        if let sub = claims.sub, sub != tokens.userID {
            throw SessionError.oauthCallbackInvalid.with(
                message: "The sign-in callback's user_id does not match its access_token. Please start the sign-in again.")
        }
    }

    static func sessionError(for error: OAuthCallbackError) -> SessionError {
        if error.isDenied { return SessionError.oauthDenied.with(goTrueErrorCode: error.errorCode.map { GoTrueErrorCode($0) }) }
        if let providerError = error.error {
            let code = error.errorCode.map { GoTrueErrorCode($0) }
            if code == .flowStateExpired || error.message.localizedCaseInsensitiveContains("expired") {
                return SessionError.oauthFlowExpired.with(goTrueErrorCode: code, underlying: "\(providerError): \(error.message)")
            }
            return SessionError.oauthFailed.with(goTrueErrorCode: code, underlying: "\(providerError): \(error.message)")
        }
        return SessionError.oauthCallbackInvalid.with(message: error.message, underlying: error.field.map { "field: \($0)" })
    }

    static func exchangeError(status: Int, body: Data, response: HTTPURLResponse) -> SessionError {
        let code = ServerErrorBody.parse(body)?.goTrueErrorCode
        switch code {
        case .flowStateNotFound?: return SessionError.oauthFlowUnknown.with(status: status, goTrueErrorCode: code)
        case .flowStateExpired?: return SessionError.oauthFlowExpired.with(status: status, goTrueErrorCode: code)
        case .badCodeVerifier?: return SessionError.oauthVerifierMismatch.with(status: status, goTrueErrorCode: code)
        default: return ResponseClassifier.error(status: status, body: body, headers: response, context: .signIn)
        }
    }
}
