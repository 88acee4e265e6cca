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
/// The flow ends with a verified, stored, server-confirmed session or a
/// typed ``SessionError``; never anything in between.
extension SessionClient {
    /// Starts an OAuth sign-in and returns the URL to open.
    ///
    /// A new PKCE verifier is saved in the store (verified) before this
    /// returns, beside the current session if there is one, so the flow
    /// survives the app being killed while the browser is open. A loopback
    /// `redirectTo` (`http://127.0.0.1:PORT/callback`) works for CLIs.
    ///
    /// - Parameters:
    ///   - provider: the provider's name on the server (`strava`).
    ///   - redirectTo: where the server sends the person back; must be on the server's allow-list.
    ///   - scopes: scopes to ask for; empty uses the server's defaults for the provider.
    /// - Throws: ``SessionError/unsupported`` (backend without OAuth),
    ///   ``SessionError/storeUnavailable`` or ``SessionError/persistenceFailed`` (nothing started).
    public func signInWithOAuth(provider: String, redirectTo: URL, scopes: [String] = []) async throws(SessionError) -> URL {
        guard !provider.isEmpty else { throw SessionError.invalidRequest.with(message: "The provider name is empty.") }
        let verifier = PKCE.makeVerifier()
        let url = try backend.authorizationURL(
            for: OAuthAuthorizationRequest(
                provider: provider, redirectTo: redirectTo, scopes: scopes, codeChallenge: PKCE.challenge(for: verifier)))
        var record: StoredSession
        if let current {
            record = pendingWrite ?? StoredSession(current)
        } else {
            // Not restored (a CLI run, say): keep whatever session the store holds.
            do {
                record = try await store.load() ?? .pendingOAuth(verifier: verifier)
            } catch {
                logger.error("The store could not be read to start an OAuth sign-in", metadata: ["reason": "\(error)"])
                throw SessionError.storeUnavailable.with(underlying: error.reason)
            }
        }
        record.pkceVerifier = verifier
        do {
            try await store.save(record)
        } catch {
            logger.error("The OAuth verifier could not be saved; not starting the sign-in", metadata: ["reason": "\(error)"])
            throw SessionError.persistenceFailed.with(
                message: "The sign-in could not be prepared on this device. Please try again.", underlying: error.reason)
        }
        if record.holdsSession, current != nil { pendingWrite = nil }
        pkceVerifier = verifier
        logger.info("OAuth sign-in started", metadata: ["provider": "\(provider)"])
        return url
    }

    /// Finishes an OAuth sign-in from the redirect the app received.
    ///
    /// Reads `code` (PKCE) or, from backends that return them directly,
    /// `access_token`, `refresh_token`, `expires_in` and `user_id`, in the
    /// query or the fragment. On success the code is exchanged, the session is
    /// confirmed with the server (`/v1/auth/me`, or `/auth/v1/user` where the
    /// server has no gateway), saved verified, and only then reported
    /// `signedIn`. Confirming before saving means a session the server does
    /// not stand behind is never written, so there is nothing to roll back.
    ///
    /// - Throws: ``SessionError/oauthDenied``, ``SessionError/oauthFailed``,
    ///   ``SessionError/oauthCallbackInvalid`` (the message names the field),
    ///   ``SessionError/oauthFlowUnknown`` (not started here, or the code was
    ///   already used), ``SessionError/oauthFlowExpired``,
    ///   ``SessionError/oauthVerifierMismatch``, or a network/server/persistence
    ///   error. In every case nothing is stored and an existing session is left as it was.
    @discardableResult
    public func handleOAuthCallback(_ url: URL) async throws(SessionError) -> Session {
        let callback: OAuthCallback
        do {
            callback = try OAuthCallback.parse(url)
        } catch {
            logger.notice("The OAuth callback was refused", metadata: ["reason": "\(error.field ?? error.error ?? "unreadable")"])
            throw Self.sessionError(for: error)
        }
        let serverNow = machine.offset.serverTime(at: clock.now)
        var session: Session
        let expectedID: String?
        switch callback.result {
        case .code(let code):
            let response = try await exchange(code: code)
            session = Session(response: response, serverNow: serverNow)
            expectedID = response.user.id
        case .tokens(let tokens):
            try Self.checkSubject(of: tokens)
            session = Session(
                accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                expiresAt: tokens.expiresAt.map { Date(timeIntervalSince1970: TimeInterval($0)) }
                    ?? serverNow.addingTimeInterval(TimeInterval(tokens.expiresIn)),
                lifetime: TimeInterval(tokens.expiresIn))
            expectedID = tokens.userID
        }
        let user = try await confirm(session)
        if let expectedID, expectedID != user.id {
            logger.error("The confirmed user is not the one the callback named; not signing in")
            throw SessionError.oauthCallbackInvalid.with(
                message: "The sign-in callback's user_id does not match the signed-in user. Please start the sign-in again.")
        }
        session.user = user
        try await establish(session)
        return session
    }

    /// `grant_type=pkce` with the stored verifier.
    private func exchange(code: String) async throws(SessionError) -> TokenResponse {
        var verifier = pkceVerifier
        if verifier == nil {
            // The app may have been killed while the browser was open and not restored yet.
            do {
                verifier = try await store.load()?.pkceVerifier
            } catch {
                throw SessionError.storeUnavailable.with(underlying: error.reason)
            }
        }
        guard let verifier else {
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
        if error.isDenied { return SessionError.oauthDenied.with(goTrueCode: error.errorCode.map { GoTrueErrorCode($0) }) }
        if let providerError = error.error {
            let code = error.errorCode.map { GoTrueErrorCode($0) }
            if code == .flowStateExpired || error.message.localizedCaseInsensitiveContains("expired") {
                return SessionError.oauthFlowExpired.with(goTrueCode: code, underlying: "\(providerError): \(error.message)")
            }
            return SessionError.oauthFailed.with(goTrueCode: code, underlying: "\(providerError): \(error.message)")
        }
        return SessionError.oauthCallbackInvalid.with(message: error.message, underlying: error.field.map { "field: \($0)" })
    }

    static func exchangeError(status: Int, body: Data, response: HTTPURLResponse) -> SessionError {
        let code = ServerErrorBody.parse(body)?.goTrueCode
        switch code {
        case .flowStateNotFound?: return SessionError.oauthFlowUnknown.with(status: status, goTrueCode: code)
        case .flowStateExpired?: return SessionError.oauthFlowExpired.with(status: status, goTrueCode: code)
        case .badCodeVerifier?: return SessionError.oauthVerifierMismatch.with(status: status, goTrueCode: code)
        default: return ResponseClassifier.error(status: status, body: body, headers: response, context: .signIn)
        }
    }
}
