import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// An error as Supabase Auth (GoTrue) answers it.
///
/// `{"code": 400, "error_code": "…", "msg": "…"}`, or, when the request sent
/// `X-Supabase-Api-Version: 2024-01-01`, `{"code": "…", "message": "…"}`.
/// ``init(_:)`` is the one place a domain error becomes a GoTrue answer.
public struct GoTrueError: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var errorCode: GoTrueErrorCode
    public var message: String
    public var headers: HTTPFields
    /// Why a password was refused (`weak_password.reasons`), which Supabase clients read.
    public var weakPasswordReasons: [String]?
    /// The OAuth `error` a DPoP refusal also carries, with `error_description` (RFC 9449 §7.1, docs/DPOP.md).
    public var oauthError: String?

    /// The header that selects the newer error shape.
    public static let apiVersionHeader = HTTPField.Name("X-Supabase-Api-Version")!

    public init(status: HTTPResponse.Status, errorCode: GoTrueErrorCode, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.errorCode = errorCode
        self.message = message
        self.headers = headers
    }

    /// Maps a domain error to GoTrue's status and error code.
    public init(_ error: AuthError) {
        var headers = HTTPFields()
        let (status, code): (HTTPResponse.Status, GoTrueErrorCode)
        switch error.kind {
        case .badJSON: (status, code) = (.badRequest, .badJSON)
        // GoTrue answers some validations 422 (an anonymous user's password, docs/ACCOUNTS.md).
        case .invalidRequest:
            (status, code) = error.goTrue.map { (HTTPResponse.Status(code: $0.status), GoTrueErrorCode($0.code)) }
                ?? (.badRequest, .validationFailed)
        case .payloadTooLarge: (status, code) = (.contentTooLarge, GoTrueErrorCode("request_too_large"))
        case .unsupportedGrantType: (status, code) = (.badRequest, .unsupportedGrantType)
        case .invalidCredentials: (status, code) = (.badRequest, .invalidCredentials)
        case .emailNotConfirmed: (status, code) = (.badRequest, .emailNotConfirmed)
        // `email_exists` for an email change (AuthError+EmailChange.swift), `user_already_exists` for a sign-up.
        case .userAlreadyExists:
            (status, code) = (.unprocessableContent, GoTrueErrorCode(error.goTrue?.code ?? GoTrueErrorCode.userAlreadyExists.rawValue))
        case .weakPassword, .passwordCharacters: (status, code) = (.unprocessableContent, .weakPassword)
        // GoTrue's codes for a password update that needs fresh proof; 400, never 401, so clients keep the session.
        case .reauthenticationNeeded: (status, code) = (.badRequest, GoTrueErrorCode("reauthentication_needed"))
        case .currentPasswordMismatch: (status, code) = (.badRequest, GoTrueErrorCode("current_password_mismatch"))
        case .reauthenticationNotValid: (status, code) = (.badRequest, GoTrueErrorCode("reauthentication_not_valid"))
        case .refreshTokenNotFound: (status, code) = (.badRequest, .refreshTokenNotFound)
        case .refreshTokenAlreadyUsed: (status, code) = (.badRequest, .refreshTokenAlreadyUsed)
        case .sessionExpired: (status, code) = (.badRequest, .sessionExpired)
        case .sessionNotFound: (status, code) = (.badRequest, .sessionNotFound)
        case .authRequired where !error.credentialsSent: (status, code) = (.unauthorized, .noAuthorization)
        case .authRequired, .tokenExpired: (status, code) = (.forbidden, .badJWT)
        case .sessionRevoked: (status, code) = (.forbidden, .sessionNotFound)
        case .notFound: (status, code) = (.notFound, .userNotFound)
        case .forbidden: (status, code) = (.forbidden, GoTrueErrorCode("not_admin"))
        case .rateLimited:
            (status, code) = (.tooManyRequests, .overRequestRateLimit)
            if let seconds = error.retryAfter { headers[.retryAfter] = String(seconds) }
        case .flowStateNotFound: (status, code) = (.notFound, .flowStateNotFound)
        case .flowStateExpired: (status, code) = (.badRequest, .flowStateExpired)
        case .badCodeVerifier: (status, code) = (.badRequest, .badCodeVerifier)
        case .providerDisabled: (status, code) = (.badRequest, .providerDisabled)
        case .badIDToken: (status, code) = (.badRequest, .badJWT)
        case .badOAuthState: (status, code) = (.badRequest, .badOAuthState)
        case .emailCodeInvalid: (status, code) = (.forbidden, .otpExpired)
        case .userBanned: (status, code) = (.badRequest, .userBanned)
        case .notAdmin: (status, code) = (.forbidden, GoTrueErrorCode("not_admin"))
        case .mailUnavailable: (status, code) = (.unprocessableContent, .emailProviderDisabled)
        case .emailRateLimited:
            (status, code) = (.tooManyRequests, .overEmailSendRateLimit)
            if let seconds = error.retryAfter { headers[.retryAfter] = String(seconds) }
        case .insufficientAAL, .mfaRefused, .linkingRefused:
            let (goTrueStatus, goTrueCode) = error.goTrue ?? (422, "insufficient_aal")
            (status, code) = (HTTPResponse.Status(code: goTrueStatus), GoTrueErrorCode(goTrueCode))
        case .internalFailure: (status, code) = (.internalServerError, .unexpectedFailure)
        // GoTrue's passkey answers (internal/api/passkey_*.go).
        case .passkeyDisabled: (status, code) = (.notFound, GoTrueErrorCode("passkey_disabled"))
        case .passkeyNotFound: (status, code) = (.notFound, .validationFailed)
        case .webauthnChallengeNotFound: (status, code) = (.badRequest, GoTrueErrorCode("webauthn_challenge_not_found"))
        case .webauthnChallengeExpired: (status, code) = (.badRequest, GoTrueErrorCode("webauthn_challenge_expired"))
        case .webauthnVerificationFailed: (status, code) = (.badRequest, GoTrueErrorCode("webauthn_verification_failed"))
        case .webauthnCredentialExists: (status, code) = (.unprocessableContent, GoTrueErrorCode("webauthn_credential_exists"))
        case .tooManyPasskeys: (status, code) = (.unprocessableContent, GoTrueErrorCode("too_many_passkeys"))
        // GoTrue's anonymous answers: internal/api/api.go (the /signup route) and auth.go (requireNotAnonymous).
        case .anonymousProviderDisabled: (status, code) = (.unprocessableContent, GoTrueErrorCode("anonymous_provider_disabled"))
        case .anonymousNotAllowed: (status, code) = (.forbidden, .noAuthorization)
        case .dpopProofInvalid:
            let (goTrueStatus, goTrueCode) = error.goTrue ?? (401, "invalid_dpop_proof")
            (status, code) = (HTTPResponse.Status(code: goTrueStatus), GoTrueErrorCode(goTrueCode))
            if goTrueStatus == 401 { headers[.wwwAuthenticate] = AuthError.dpopChallenge(error.message, code: goTrueCode) }
        case .databaseUnavailable:
            (status, code) = (.serviceUnavailable, GoTrueErrorCode("service_unavailable"))
            if let seconds = error.retryAfter { headers[.retryAfter] = String(seconds) }
        }
        let message: String
        switch error.kind {
        case .authRequired where !error.credentialsSent: message = "This endpoint requires a valid Bearer token"
        case .authRequired, .tokenExpired:
            message = "invalid JWT: unable to parse or verify signature, \(error.message)"
        default: message = error.message
        }
        self.init(status: status, errorCode: code, message: message, headers: headers)
        if error.kind == .weakPassword { weakPasswordReasons = ["length"] }
        if error.kind == .passwordCharacters { weakPasswordReasons = ["characters"] }
        if error.kind == .dpopProofInvalid { oauthError = code.rawValue }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let versioned = request.headers[Self.apiVersionHeader].map { $0 >= "2024-01-01" } ?? false
        var fields: [String: Any] =
            versioned
            ? ["code": errorCode.rawValue, "message": message]
            : ["code": status.code, "error_code": errorCode.rawValue, "msg": message]
        if let weakPasswordReasons { fields["weak_password"] = ["reasons": weakPasswordReasons] }
        if let oauthError {
            fields["error"] = oauthError
            fields["error_description"] = message
        }
        let body = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        if versioned {
            // Supabase clients read `code` as the error code only when the
            // response names its API version, as GoTrue's responses do.
            headers[Self.apiVersionHeader] = "2024-01-01"
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
