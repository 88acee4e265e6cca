import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Signing in with an OAuth provider (Strava and the like), with PKCE: the
/// URL to open, then the callback the app received.
///
/// The flow ends with a verified, stored session (confirmed with the server,
/// or being confirmed in the background when it could not answer) or a typed
/// ``SessionError`` with nothing stored.
struct OAuthSignIn: Sendable {
    /// How long after it started a token-style callback is still accepted.
    static let callbackWindow: TimeInterval = 30 * 60

    /// Saves a new verifier and `state` (beside the stored session) and returns the URL to open.
    func start(
        provider: String, redirectTo: URL, scopes: [String], on engine: isolated any SessionEngine
    ) async throws(SessionError) -> URL {
        guard !provider.isEmpty else { throw SessionError.invalidRequest.with(message: "The provider name is empty.") }
        // The verifier is written beside the stored session: know it first (and report it).
        try await engine.ensureRestored()
        let pending = SessionClient.PendingOAuth(verifier: PKCE.makeVerifier(), state: PKCE.makeVerifier(), startedAt: engine.now)
        let url = try engine.backend.authorizationURL(
            for: OAuthAuthorizationRequest(
                provider: provider, redirectTo: redirectTo, scopes: scopes,
                codeChallenge: PKCE.challenge(for: pending.verifier), state: pending.state))
        try await engine.beginOAuth(pending)
        engine.logger.info("OAuth sign-in started", metadata: ["provider": "\(provider)"])
        return url
    }

    /// Finishes the sign-in from the redirect: the new session is confirmed
    /// with the server before it replaces the current one, then saved.
    func finish(_ url: URL, on engine: isolated any SessionEngine) async throws(SessionError) -> Session {
        let logger = engine.logger
        let callback: OAuthCallback
        do {
            callback = try OAuthCallback.parse(url)
        } catch {
            logger.notice("The OAuth callback was refused", metadata: ["reason": "\(error.field ?? error.error ?? "unreadable")"])
            throw Self.sessionError(for: error)
        }
        await engine.waitForRunningRestore()
        let serverNow = engine.serverNow
        var session: Session
        let expectedID: String?
        switch callback.result {
        case .code(let code):
            let response = try await exchange(code: code, on: engine)
            session = Session(response: response, serverNow: serverNow)
            expectedID = response.user?.id
        case .tokens(let tokens):
            try await checkPendingFlow(for: tokens, on: engine)
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
            confirmation = .success(try await confirm(session, on: engine))
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
            try await engine.establish(session, keepingUnsaved: true)
            return engine.currentSession ?? session
        case .failure(let error) where error.isTransient:
            // The server could not say right now; the tokens cannot be had
            // again, so the session stands until it can, confirmed in the background.
            logger.notice("The new OAuth session could not be confirmed yet; keeping it and retrying", metadata: ["reason": "\(error)"])
            let established = try await engine.establish(session, keepingUnsaved: true)
            engine.checkInBackground(established) { (engine, session) async throws(SessionError) -> SessionUser in
                try await OAuthSignIn().confirm(session, on: engine)
            }
            return engine.currentSession ?? session
        case .failure(let error):
            // Refused by the server (the tokens are not good): nothing to keep, nothing replaced.
            logger.notice("The server refused the new OAuth session; the current session is untouched", metadata: ["reason": "\(error)"])
            throw error
        }
    }

    /// A token-style callback must answer a sign-in started here, recently, with its `state`.
    func checkPendingFlow(for tokens: OAuthCallback.Tokens, on engine: isolated any SessionEngine) async throws(SessionError) {
        let pending = try await engine.pendingOAuthSignIn()
        guard let pending else {
            engine.logger.notice("Tokens arrived in an OAuth callback, but no sign-in was started here")
            throw SessionError.oauthFlowUnknown
        }
        if let startedAt = pending.startedAt, engine.now.timeIntervalSince(startedAt) > Self.callbackWindow {
            throw SessionError.oauthFlowExpired
        }
        guard let expected = pending.state, let state = tokens.state, state == expected else {
            engine.logger.notice("An OAuth callback's state does not match the sign-in started here; refused")
            throw SessionError.oauthCallbackInvalid.with(
                message: "The sign-in callback does not belong to the sign-in started here. Please start the sign-in again.",
                underlying: "field: state")
        }
    }

    /// `grant_type=pkce` with the stored verifier.
    private func exchange(code: String, on engine: isolated any SessionEngine) async throws(SessionError) -> TokenResponse {
        // The app may have been killed while the browser was open and not restored yet.
        guard let verifier = try await engine.pendingOAuthSignIn()?.verifier else {
            engine.logger.notice("An OAuth callback arrived but no sign-in was started here")
            throw SessionError.oauthFlowUnknown
        }
        let backend = engine.backend
        let request = try backend.request(for: .exchangeCode(PKCETokenRequest(authCode: code, codeVerifier: verifier)))
        let (data, response) = try await engine.sendObserved(request).get()
        guard (200..<300).contains(response.statusCode) else {
            throw Self.exchangeError(status: response.statusCode, body: data, response: response)
        }
        return try BackendDecoding.validate(backend.decodeSession(data))
    }

    /// Asks the server who the new session belongs to, with the new access token.
    func confirm(_ session: Session, on engine: isolated any SessionEngine) async throws(SessionError) -> SessionUser {
        let backend = engine.backend
        let (data, response) = try await sendBearer(try backend.request(for: .confirmSession), session: session, on: engine)
        if response.statusCode == 404 {
            // A GoTrue server without the gateway (hosted Supabase): GoTrue's own user endpoint.
            engine.logger.info("No gateway /v1/auth/me; confirming the OAuth session with /auth/v1/user")
            let (userData, userResponse) = try await sendBearer(try backend.request(for: .currentUser), session: session, on: engine)
            return try backend.decodeUser(try SessionClient.check(userData, userResponse).0)
        }
        return try backend.decodeUser(try SessionClient.check(data, response).0)
    }

    private func sendBearer(
        _ request: URLRequest, session: Session, on engine: isolated any SessionEngine
    ) async throws(SessionError) -> (Data, HTTPURLResponse) {
        var request = request
        // `DPoP` for a session the server bound to the key (docs/DPOP.md).
        request.setValue(DPoPWire.authorization(session.accessToken, bound: session.isProofBound), forHTTPHeaderField: "Authorization")
        return try await engine.sendObserved(request).get()
    }
}
