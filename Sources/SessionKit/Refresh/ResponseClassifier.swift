import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// Turns a server answer or a transport failure into a ``SessionError``, and a
/// refresh answer into a ``RefreshOutcome`` — docs/PROTOCOL.md's tables in code.
enum ResponseClassifier {
    /// What the request was, where it changes the reading of a code.
    enum Context {
        case signIn, refresh, request
    }

    /// The typed error for an answer with a non-2xx `status`.
    static func error(status: Int, body: Data, headers: HTTPURLResponse?, context: Context) -> SessionError {
        let parsed = ServerErrorBody.parse(body)
        let serverMessage = parsed.flatMap { $0.message.isEmpty ? nil : $0.message }
        let retryAfter = headers.flatMap { retryAfterSeconds($0.value(forHTTPHeaderField: "Retry-After")) }
        let code = parsed?.gatewayCode
        let goTrue = parsed?.goTrueErrorCode

        func make(_ base: SessionError, keepServerMessage: Bool = true) -> SessionError {
            base.with(
                message: keepServerMessage ? serverMessage : nil, status: status, gatewayCode: code, goTrueErrorCode: goTrue,
                retryAfter: retryAfter)
        }

        // A banned account is its own reason, at sign-in as on any other request.
        if goTrue == .userBanned { return make(.accountSuspended, keepServerMessage: false) }
        // A step-up refuses the session's level, never the session (docs/MFA.md): keep it, ask for the code.
        if code == .mfaRequired || goTrue == .insufficientAAL { return make(.secondFactorRequired, keepServerMessage: false) }
        if goTrue == .mfaVerificationFailed || goTrue == .mfaChallengeExpired {
            return make(.secondFactorCodeInvalid, keepServerMessage: false)
        }
        if code == .sessionExpired || (goTrue?.endsSession ?? false) {
            // A wrong password on the password grant is `invalid_grant` in older GoTrue.
            if context == .signIn { return make(.invalidCredentials, keepServerMessage: false) }
            // One message, whatever the server said, so the person sees one thing.
            return make(.sessionExpired, keepServerMessage: false)
        }
        // The right password for an address not confirmed yet: say what to do, whatever the server's words.
        if goTrue == .emailNotConfirmed { return make(.emailNotConfirmed, keepServerMessage: false) }
        if goTrue == .invalidCredentials { return make(.invalidCredentials, keepServerMessage: false) }
        // Older GoTrue answers a wrong password with OAuth's `invalid_grant`.
        if context == .signIn, goTrue == .invalidGrant { return make(.invalidCredentials, keepServerMessage: false) }
        // An ID token the server would not accept (Sign in with Apple): its message names the check.
        if context == .signIn, goTrue == .badJWT { return make(.invalidCredentials) }
        // One answer for a wrong, expired or used email code; GoTrue says so with 403.
        if goTrue == .otpExpired { return make(.codeInvalid, keepServerMessage: false) }
        if goTrue == .emailProviderDisabled { return make(.unsupported) }
        // Fresh proof wanted for this action only: the session stands (a 403 or 400, never an end).
        if code == .reauthenticationRequired || goTrue == .reauthenticationNeeded || goTrue == .reauthenticationNotValid
            || goTrue == .currentPasswordMismatch
        {
            let wrongProof = goTrue == .currentPasswordMismatch || goTrue == .reauthenticationNotValid
            let error = make(.reauthenticationRequired, keepServerMessage: false)
            return wrongProof ? error.with(message: "That password (or code) is not right. Check it and try again.") : error
        }
        if code == .authRequired || goTrue == .noAuthorization || goTrue == .badJWT {
            return make(.authRequired, keepServerMessage: false)
        }
        if code == .forbidden { return make(.forbidden) }
        if code == .rateLimited || goTrue == .overRequestRateLimit || status == 429 { return make(.rateLimited) }
        if code == .invalidRequest || goTrue == .validationFailed || goTrue == .badJSON || goTrue == .weakPassword {
            return make(.invalidRequest)
        }
        if code == .conflict || goTrue == .userAlreadyExists || goTrue == .emailExists || status == 409 {
            return make(.conflict)
        }
        if code == .notFound || status == 404 { return make(.notFound) }
        if status >= 500 || status == 408 || code == .internal {
            return make(.server, keepServerMessage: false)
        }
        switch status {
        case 401: return make(.authRequired, keepServerMessage: false)
        case 403: return make(.forbidden)
        case 400, 422: return make(.invalidRequest)
        default: return make(.requestFailed)
        }
    }

    /// The typed error for a request that got no answer.
    static func transportError(_ error: any Error) -> SessionError {
        if error is CancellationError { return .cancelled }
        if let urlError = error as? URLError {
            if urlError.code == .cancelled { return .cancelled }
            return SessionError.network.with(underlying: "URLError \(urlError.code.rawValue)")
        }
        if let sessionError = error as? SessionError { return sessionError }
        return SessionError.network.with(underlying: String(describing: type(of: error)))
    }

    /// Reads the refresh answer as the refresh-outcome table (docs/PROTOCOL.md).
    ///
    /// Rule B (docs/PROTOCOL.md, "The rules"): only the auth server's own verdict ends a session: a code the backend
    /// declares in ``SessionBackend/sessionEndingCodes``. Everything else that
    /// is not a success keeps the session and its refresh token.
    static func refreshOutcome(
        status: Int, body: Data, headers: HTTPURLResponse?, backend: any SessionBackend,
        endingCodes: SessionEndingCodes? = nil
    ) -> RefreshOutcome {
        if (200..<300).contains(status) {
            do {
                return .success(try BackendDecoding.validate(backend.decodeSession(body)))
            } catch {
                // A 200 we cannot read (a captive portal's page, a garbled body)
                // proves nothing about the session: keep it, retry.
                return .transient(error)
            }
        }
        let parsed = ServerErrorBody.parse(body)
        let failure = Self.error(status: status, body: body, headers: headers, context: .refresh)
        let details = { (base: SessionError) in
            base.with(
                status: status, gatewayCode: parsed?.gatewayCode, goTrueErrorCode: parsed?.goTrueErrorCode, retryAfter: failure.retryAfter)
        }
        switch (endingCodes ?? backend.sessionEndingCodes).reading(parsed) {
        case .alreadyUsed?: return .alreadyUsed(details(.sessionExpired))
        case .banned?: return .terminal(details(.accountSuspended))
        case .ended?: return .terminal(details(.sessionExpired))
        case nil: break
        }
        // 5xx, 429, 408: the server (or its path) is struggling; classic backoff.
        if status >= 500 || status == 429 || status == 408 { return .transient(failure) }
        // A 401/403 without a recognised code (a proxy's HTML page, an API
        // gateway's "Invalid API key"), a redirect, an unknown 4xx: something
        // in between refused. Never an end.
        return .refused(
            SessionError.refreshRefused.with(
                status: status, gatewayCode: parsed?.gatewayCode, goTrueErrorCode: parsed?.goTrueErrorCode, retryAfter: failure.retryAfter,
                underlying: describeRefusal(status: status, body: body, parsed: parsed, headers: headers)))
    }

    /// A short, token-free description of who refused: status, content type, the body's own words.
    static func describeRefusal(status: Int, body: Data, parsed: ServerErrorBody?, headers: HTTPURLResponse?) -> String {
        var text = "HTTP \(status)"
        if let type = headers?.value(forHTTPHeaderField: "Content-Type") { text += ", \(type.prefix(60))" }
        if let code = parsed?.gatewayCode ?? parsed?.goTrueErrorCode.map({ GatewayErrorCode($0.rawValue) }) { text += ", code \(code.rawValue.prefix(60))" }
        if let message = parsed?.message, !message.isEmpty { text += ": \(message.prefix(120))" }
        else if parsed == nil, !body.isEmpty { text += ", \(body.count) bytes that are not an error body" }
        return text
    }

    /// `Retry-After` as seconds (delta-seconds only; an HTTP-date is rare on auth endpoints).
    static func retryAfterSeconds(_ value: String?) -> TimeInterval? {
        guard let value, let seconds = TimeInterval(value.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
            seconds >= 0
        else { return nil }
        return seconds
    }
}

/// What a refresh attempt came to.
enum RefreshOutcome: Sendable {
    case success(TokenResponse)
    /// No answer, or a struggling server (5xx, 429, 408, an unreadable 200): keep the session, retry with backoff.
    case transient(SessionError)
    /// Refused by something that is not the auth server's verdict: keep the
    /// session and the refresh token, retry with backoff, ask for attention after a while.
    case refused(SessionError)
    /// The refresh token was already used: re-read the store, adopt a newer session, else end.
    case alreadyUsed(SessionError)
    /// The server ended the session (`sessionExpired`, or `accountSuspended` with its own message).
    case terminal(SessionError)
}
