import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// An error in the gateway envelope, `{"success": false, "error": {"code", "message"}}`.
///
/// ``init(_:)`` is the one place a domain error becomes a gateway answer,
/// following docs/DESIGN.md's error contract table.
public struct GatewayError: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: GatewayErrorCode
    public var message: String
    public var headers: HTTPFields

    public init(status: HTTPResponse.Status, code: GatewayErrorCode, message: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message ?? code.defaultMessage
        self.headers = headers
    }

    /// Maps a domain error to the gateway contract.
    public init(_ error: AuthError) {
        var headers = HTTPFields()
        // RFC 6750 §3: only when a token was presented do we say it was invalid.
        if error.credentialsSent {
            headers[.wwwAuthenticate] = #"Bearer error="invalid_token""#
        }
        switch error.kind {
        case .tokenExpired, .sessionRevoked, .refreshTokenNotFound, .refreshTokenAlreadyUsed, .sessionExpired,
            .sessionNotFound:
            self.init(status: .unauthorized, code: .sessionExpired, headers: headers)
        case .authRequired, .invalidCredentials:
            self.init(status: .unauthorized, code: .authRequired, headers: headers)
        case .badJSON, .invalidRequest, .unsupportedGrantType, .weakPassword, .passwordCharacters, .flowStateNotFound, .flowStateExpired,
            .badCodeVerifier, .providerDisabled, .badOAuthState, .badIDToken, .emailCodeInvalid, .mailUnavailable,
            .emailNotConfirmed, .anonymousProviderDisabled:
            self.init(status: .badRequest, code: .invalidRequest, message: error.message)
        case .reauthenticationNeeded, .currentPasswordMismatch, .reauthenticationNotValid:
            // 403, not 401: the session stays valid; only this action needs fresh proof.
            self.init(status: .forbidden, code: .reauthenticationRequired, message: error.message)
        case .payloadTooLarge:
            self.init(status: .contentTooLarge, code: .invalidRequest, message: error.message)
        case .userAlreadyExists:
            self.init(status: .conflict, code: .conflict, message: error.message)
        case .notFound:
            self.init(status: .notFound, code: .notFound)
        case .forbidden, .notAdmin, .anonymousNotAllowed:
            self.init(status: .forbidden, code: .forbidden)
        case .userBanned:
            // Like an ended session: the app shows sign-in, and the message says why.
            self.init(status: .unauthorized, code: .sessionExpired, message: error.message, headers: headers)
        case .rateLimited, .emailRateLimited:
            headers[.retryAfter] = String(error.retryAfter ?? 60)
            self.init(status: .tooManyRequests, code: .rateLimited, headers: headers)
        case .insufficientAAL:
            // 403: the session stays; only a verified second factor opens the route (docs/DESIGN.md's contract).
            self.init(status: .forbidden, code: GatewayErrorCode("MFA_REQUIRED"), message: Self.mfaRequiredMessage)
        case .mfaRefused where error.goTrue?.status == 404, .linkingRefused where error.goTrue?.status == 404:
            self.init(status: .notFound, code: .notFound)
        case .mfaRefused, .linkingRefused:
            self.init(status: .badRequest, code: .invalidRequest, message: error.message)
        case .internalFailure:
            self.init(status: .internalServerError, code: .internal)
        case .passkeyDisabled, .passkeyNotFound:
            self.init(status: .notFound, code: .notFound, message: error.message)
        case .webauthnChallengeNotFound, .webauthnChallengeExpired, .webauthnVerificationFailed, .webauthnCredentialExists,
            .tooManyPasskeys:
            self.init(status: .badRequest, code: .invalidRequest, message: error.message)
        case .dpopProofInvalid:
            // 401 on a resource, 400 on a grant (docs/DPOP.md); never an ended session.
            let status = HTTPResponse.Status(code: error.goTrue?.status ?? 401)
            var headers = HTTPFields()
            if status == .unauthorized {
                headers[.wwwAuthenticate] = AuthError.dpopChallenge(error.message, code: error.goTrue?.code ?? "invalid_dpop_proof")
            }
            self.init(status: status, code: GatewayErrorCode("DPOP_PROOF_REQUIRED"), message: error.message, headers: headers)
        case .databaseUnavailable:
            headers[.retryAfter] = String(error.retryAfter ?? 1)
            self.init(status: .serviceUnavailable, code: .internal, message: error.message, headers: headers)
        }
    }

    /// What `MFA_REQUIRED` tells the person.
    static let mfaRequiredMessage = "This needs your second factor. Enter the code from your authenticator app to continue."

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try WireCoding.encoder().encode(ErrorEnvelope(code: code, message: message))
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension AuthError: HTTPResponseError {
    /// Outside the two mapping middlewares (an app using ``AuthMiddleware``
    /// on its own routes), a domain error answers in the gateway envelope.
    public var status: HTTPResponse.Status { GatewayError(self).status }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try GatewayError(self).response(from: request, context: context)
    }
}
