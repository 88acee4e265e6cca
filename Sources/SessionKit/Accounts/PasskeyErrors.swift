import Foundation
import SessionCore

/// The passkey API's refusals in words a person can act on. None of them
/// ends a session (docs/PASSKEYS.md, "Errors"): the classifier's reading is
/// kept (status, `error_code`), with the kind and message a passkey needs.
enum PasskeyErrors {
    static func explained(_ error: SessionError) -> SessionError {
        let code = error.goTrueErrorCode
        func recast(_ base: SessionError, _ message: String) -> SessionError {
            base.with(
                message: message, status: error.status, goTrueErrorCode: code, retryAfter: error.retryAfter,
                underlying: error.underlying ?? error.message)
        }
        switch code {
        case .passkeyDisabled?:
            return recast(.unsupported, "This server does not offer passkeys (they are turned off).")
        case .webauthnVerificationFailed?:
            return recast(.invalidCredentials, "This passkey was not accepted. Try again, or sign in another way.")
        case .webauthnChallengeNotFound?, .webauthnChallengeExpired?:
            return recast(.invalidRequest, "The passkey request expired or was already used. Please try again.")
        case .webauthnCredentialExists?:
            return recast(.conflict, "This passkey is registered already.")
        case .tooManyPasskeys?:
            return recast(.conflict, "This account holds the most passkeys it may. Remove one, then add this one.")
        case .validationFailed? where error.status == 404:
            // GoTrue answers a passkey the account does not have with 404 `validation_failed`.
            return recast(.notFound, "This account has no such passkey.")
        default:
            return error
        }
    }
}
