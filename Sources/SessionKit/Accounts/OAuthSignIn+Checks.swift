import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// What an OAuth callback and the code exchange are read as: pure, no engine.
extension OAuthSignIn {
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
