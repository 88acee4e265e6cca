import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Authorized requests: Bearer attached, one forced refresh and retry on 401.
extension SessionClient {
    /// Sends an app request with `Authorization: Bearer` through the client's transport.
    ///
    /// On 401 (or GoTrue's 403 `bad_jwt`) it forces one refresh — never
    /// answered by the token that was just rejected — and retries once.
    /// Called while ``restore()`` runs, it waits for it.
    ///
    /// - Returns: body and response of every answer that is your API's own,
    ///   whatever its status, as `URLSession` does: a 422 with your
    ///   validation errors, a 403, a 500, and a 401 to a token the auth server
    ///   had just issued that names neither `SESSION_EXPIRED` nor `AUTH_REQUIRED`
    ///   (the session is kept). Check `response.statusCode`.
    /// - Throws: only what the session decides: ``SessionError/originNotAllowed``
    ///   (nothing sent) when the request's origin is neither the backend's
    ///   nor in ``SessionClientConfiguration/authorizedOrigins``;
    ///   ``SessionError/sessionExpired`` (the session ended) or
    ///   ``SessionError/authRequired`` (signed out without a message) when a
    ///   freshly refreshed token is rejected with that code;
    ///   ``SessionError/notSignedIn``, a failed refresh's error, or
    ///   ``SessionError/network`` when no answer came.
    ///
    /// A request for one of ``SessionClientConfiguration/authorizedOrigins``
    /// (not the auth backend's) with a valid token runs on the caller's
    /// executor and does not enter the client actor unless its answer is
    /// one the session acts on (a rejection, a redirect, no answer):
    /// docs/PROTOCOL.md, "Requests beside the actor".
    public nonisolated(nonsending) func send(_ request: URLRequest) async throws(SessionError) -> (Data, HTTPURLResponse) {
        // The backend's origins always; the app's list adds to them (as for redirects).
        // Parsed once per request: the lists were parsed when the client was made (`AllowedOrigins`).
        let url = request.url
        let origin = Origin(url)
        guard let origin, origins.authorized.contains(origin) else {
            logger.warning("Refused to attach the access token to a request for another origin", metadata: ["host": "\(request.url?.host ?? "-")"])
            throw SessionError.originNotAllowed.with(
                underlying: "\(request.url?.host ?? "no host") is not in authorizedOrigins; add its origin to the configuration")
        }
        var request = request
        backend.prepare(&request)
        // As in `accessToken()`, every await below returns a value and the throw
        // comes last, on the caller's executor (swiftlang/swift#88259).
        let answer: Result<(Data, HTTPURLResponse), SessionError>
        // `prepare` may in principle move the request; then its origin is read again.
        if let token = tokenBesideTheActor(for: request.url == url ? origin : Origin(request.url)) {
            answer = await sendBesideTheActor(request, token: token)
        } else {
            answer = await sendThroughTheActor(request)
        }
        return try answer.get()
    }

    /// `send` through the actor, as every request went before issue 44.
    @inline(never)
    func sendThroughTheActor(_ request: URLRequest) async -> Result<(Data, HTTPURLResponse), SessionError> {
        do {
            // The API's own answers (a 422 with its validation errors, a 403, a 500) are the app's, as with URLSession.
            return .success(try await authorizedSend(request, checked: false))
        } catch {
            return .failure(error)
        }
    }

    /// The signed-in user, from the server.
    public func me() async throws(SessionError) -> SessionUser {
        try await AccountRequests().me(on: self)
    }

    /// Changes the profile (`PATCH /v1/auth/me`) and returns the updated user.
    ///
    /// - Throws: ``SessionError/unsupported`` on a server without the gateway
    ///   (hosted Supabase): use ``updateUser(_:)`` with `data` there.
    public func updateProfile(_ update: ProfileUpdate) async throws(SessionError) -> SessionUser {
        try await AccountRequests().updateProfile(update, on: self)
    }

    /// Changes the user's email, password or metadata, as supabase-swift's
    /// `auth.update(user:)` does (`PUT /auth/v1/user`), and returns the updated user.
    ///
    /// A new email is confirmed by mail first (the user keeps the old one
    /// until then); a new password signs out the account's other sessions.
    ///
    /// - Throws: ``SessionError/reauthenticationRequired`` when the server
    ///   wants fresh proof (pass `currentPassword`, or the emailed `nonce`),
    ///   ``SessionError/invalidRequest`` (a weak password, a taken address),
    ///   ``SessionError/unsupported`` on a backend without it.
    @discardableResult
    public func updateUser(_ attributes: UserAttributes) async throws(SessionError) -> SessionUser {
        try await AccountRequests().updateUser(attributes, on: self)
    }

    /// Deletes the account, then ends the session here.
    ///
    /// - Parameters:
    ///   - currentPassword: fresh proof, needed when the session signed in
    ///     longer ago than the server's re-authentication window (10 minutes
    ///     by default on `auth-server`).
    ///   - nonce: the other proof, for a person without a password: the code
    ///     ``reauthenticate()`` had mailed.
    /// - Throws: ``SessionError/reauthenticationRequired`` (ask for the
    ///   password, or call ``reauthenticate()`` and ask for the mailed code,
    ///   then call again; the session is kept), or
    ///   ``SessionError/unsupported`` on a server without self-service
    ///   deletion (hosted Supabase: the message names the usual pattern).
    public func deleteAccount(currentPassword: String? = nil, nonce: String? = nil) async throws(SessionError) {
        try await AccountRequests().deleteAccount(currentPassword: currentPassword, nonce: nonce, on: self)
    }

    /// This user's signed-in devices (`GET /v1/sessions`).
    public func deviceSessions() async throws(SessionError) -> [DeviceSession] {
        try await AccountRequests().deviceSessions(on: self)
    }

    /// Signs out one device session by id (`DELETE /v1/sessions/{id}`).
    public func revokeDeviceSession(id: String) async throws(SessionError) {
        try await AccountRequests().revokeDeviceSession(id: id, on: self)
    }

    // MARK: - Machinery

    /// - Parameter checked: `false` for ``send(_:)``: an answer the session
    ///   did not act on is returned as it came, not thrown.
    func authorizedSend(_ request: URLRequest, checked: Bool = true) async throws(SessionError) -> (Data, HTTPURLResponse) {
        var session = try await validSession()
        let answer = try await sendWithToken(request, session: &session)
        return try await settle(request, answer: answer, sentWith: session.accessToken, checked: checked)
    }

    /// What the session does with `answer`, the answer to `request` sent with
    /// the access token `token`: a rejection forces one refresh (never
    /// answered by `token`) and a retry. Shared by both of `send`'s paths, so a
    /// rejection met beside the actor is handled exactly as one met on it.
    func settle(
        _ request: URLRequest, answer: (Data, HTTPURLResponse), sentWith token: String, checked: Bool
    ) async throws(SessionError) -> (Data, HTTPURLResponse) {
        let (data, response) = answer
        guard Self.rejectsToken(response, data) else { return checked ? try Self.check(data, response) : (data, response) }
        if planted(.signOutOnAny401) {
            await endSession(.silently)
            throw SessionError.authRequired.with(status: response.statusCode)
        }

        logger.info("The access token was rejected; refreshing once and retrying", metadata: ["status": "\(response.statusCode)"])
        var refreshed = try await refreshSession(reason: .rejected(accessToken: token))
        var (retryData, retryResponse) = try await sendWithToken(request, session: &refreshed)
        if Self.rejectsToken(retryResponse, retryData), machine.lastIssuedAccessToken != refreshed.accessToken {
            // That token came from the store (another process refreshed), not
            // from the server just now: it may have expired long ago on a
            // device whose clock cannot tell. Only a rejection of a token the
            // server has just issued is its word (docs/PROTOCOL.md, "What each failure does").
            logger.info("An adopted token was rejected too; refreshing from the server", metadata: ["status": "\(retryResponse.statusCode)"])
            refreshed = try await refreshSession(reason: .rejected(accessToken: refreshed.accessToken))
            (retryData, retryResponse) = try await sendWithToken(request, session: &refreshed)
        }
        if planted(.refreshUntilAccepted) {
            for _ in 0..<5 where Self.rejectsToken(retryResponse, retryData) {
                refreshed = try await refreshSession(reason: .rejected(accessToken: refreshed.accessToken))
                (retryData, retryResponse) = try await sendWithToken(request, session: &refreshed)
            }
        }
        guard Self.rejectsToken(retryResponse, retryData) else {
            return checked ? try Self.check(retryData, retryResponse) : (retryData, retryResponse)
        }

        // A freshly refreshed token rejected again. Only the gateway contract's
        // explicit codes end the session; a bare 401 (a third-party API the
        // app called, say) is the caller's error, never a sign-out.
        let error = ResponseClassifier.error(
            status: retryResponse.statusCode, body: retryData, headers: retryResponse, context: .request)
        if refreshed.isAnonymous, error.gatewayCode == .sessionExpired || error.gatewayCode == .authRequired {
            // An anonymous session is the only way back into its account: an API's word does not end it, the
            // auth server's does. One more refresh asks it; a terminal verdict there ends the session (and
            // throws), anything else keeps it (docs/ACCOUNTS.md, "Anonymous users (SDK)").
            logger.notice("An API refused an anonymous session's fresh token; asking the auth server before anything ends")
            _ = try await refreshSession(reason: .rejected(accessToken: refreshed.accessToken))
            guard checked else { return (retryData, retryResponse) }
            throw SessionError.requestRejected.with(
                status: error.status, gatewayCode: error.gatewayCode, underlying: error.underlying ?? error.message)
        }
        switch error.gatewayCode {
        case .sessionExpired?:
            logger.notice("The server rejected a freshly refreshed token as expired; ending the session")
            await endSession(.expired(.sessionExpired))
            throw error
        case .authRequired?:
            logger.info("The server requires a new sign-in; signed out")
            await endSession(.silently)
            throw error
        default:
            logger.notice("A freshly refreshed token was rejected; keeping the session", metadata: ["status": "\(retryResponse.statusCode)"])
            guard checked else { return (retryData, retryResponse) }
            // Not `.authRequired`: that kind sends an app to its sign-in screen, and the session is fine.
            throw SessionError.requestRejected.with(
                status: error.status, gatewayCode: error.gatewayCode, goTrueErrorCode: error.goTrueErrorCode,
                retryAfter: error.retryAfter, underlying: error.underlying ?? error.message)
        }
    }

    /// Sends `request` with `session`'s access token, following redirects the
    /// client may follow; `session` ends as the one whose token the last hop carried.
    /// `hops`: redirects already followed to reach `request`.
    func sendWithToken(_ request: URLRequest, session: inout Session, hops: Int = 0) async throws(SessionError) -> (Data, HTTPURLResponse) {
        var request = request
        request.setValue(authorization(for: session), forHTTPHeaderField: "Authorization")
        var hops = hops
        while true {
            let answer: (Data, HTTPURLResponse)
            switch await sendObserved(request) {
            case .success(let received):
                answer = received
            case .failure(let error):
                // A bound session on a device without its key can never be used here again: ended once (docs/DPOP.md).
                if error == .proofKeyLost { await endSessionWithLostKey(session) }
                // Offline is the auth server's state: the app's own API being unreachable says nothing about it.
                if error == .network, origins.isBackend(request.url), let current,
                    current.refreshToken == session.refreshToken
                {
                    markOffline(current)
                }
                throw error
            }
            // The default transport never follows a redirect; the token goes only where `send` allows it.
            guard var next = try redirect(after: request, answer: answer.1, hops: hops) else { return answer }
            // The redirect's `Date` may just have told the server's clock (after
            // the device clock jumped, say), and by it the token sent may be
            // expired: authorize the next hop afresh rather than copy the header
            // (docs/PROTOCOL.md, "The server's clock").
            session = try await validSession()
            // Its own proof too, for its own method and URL: `sendObserved` signs each hop afresh.
            next.setValue(authorization(for: session), forHTTPHeaderField: "Authorization")
            request = next
            hops += 1
        }
    }

    /// Sends a request that carries no access token (sign-in, sign-up); 2xx body or a typed error.
    func sendUnauthorized(_ request: URLRequest, context: ResponseClassifier.Context) async throws(SessionError) -> Data {
        let (data, response) = try await sendObserved(request).get()
        guard (200..<300).contains(response.statusCode) else {
            throw ResponseClassifier.error(status: response.statusCode, body: data, headers: response, context: context)
        }
        return data
    }

    /// 401, or GoTrue's 403 for a bad or ended token; never the gateway's 403 `FORBIDDEN` nor a step-up.
    static func rejectsToken(_ response: HTTPURLResponse, _ data: Data) -> Bool {
        switch response.statusCode {
        case 401:
            // The server's nonce, asked for again after the one retry: the proof's matter, never the token's.
            if DPoPWire.asksForNonce(response, data) { return false }
            // A step-up (401 `insufficient_aal`) refuses the level, not the token: a refresh keeps the level, so
            // refreshing and retrying could only loop (docs/MFA.md).
            let body = ServerErrorBody.parse(data)
            return !(body?.goTrueErrorCode == .insufficientAAL || body?.gatewayCode == .mfaRequired)
        case 403:
            let body = ServerErrorBody.parse(data)
            if body?.gatewayCode == .forbidden { return false }
            return body?.goTrueErrorCode == .badJWT || body?.goTrueErrorCode?.endsSession == true
        default: return false
        }
    }

    /// The answer when it is a 2xx, else its error.
    ///
    /// Never ``SessionError/sessionExpired``: an answer read here ends no
    /// session, so a GoTrue-shaped `session_expired` from an API (or from a
    /// confirmation of a token that is not the session's) is
    /// ``SessionError/requestRejected`` with its codes. Only the paths that
    /// end the session throw `sessionExpired`.
    static func check(_ data: Data, _ response: HTTPURLResponse) throws(SessionError) -> (Data, HTTPURLResponse) {
        guard (200..<300).contains(response.statusCode) else {
            let error = ResponseClassifier.error(status: response.statusCode, body: data, headers: response, context: .request)
            guard error == .sessionExpired else { throw error }
            throw SessionError.requestRejected.with(
                status: error.status, gatewayCode: error.gatewayCode, goTrueErrorCode: error.goTrueErrorCode,
                retryAfter: error.retryAfter, underlying: error.underlying ?? error.message)
        }
        return (data, response)
    }
}
