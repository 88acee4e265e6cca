import SessionKit

extension CLIError {
    /// The message and exit code for an SDK failure.
    ///
    /// - Parameter signedIn: whether a session exists (decides what
    ///   "unreachable" means: still signed in, or nothing happened yet).
    init(_ error: SessionError, signedIn: Bool) {
        let code = error.gatewayCode?.rawValue ?? error.goTrueErrorCode?.rawValue
        switch error {
        case .notSignedIn, .authRequired:
            self = .notSignedIn()
        case .sessionExpired:
            self = .expired()
        case .network:
            self = signedIn ? .unreachable() : .unreachableSignedOut()
        case .invalidCredentials:
            self = .refused(code: "INVALID_CREDENTIALS", message: error.message)
        case .invalidRequest, .conflict, .forbidden:
            self = .refused(code: code ?? "REFUSED", message: error.message)
        case .emailNotConfirmed:
            self = .refused(
                code: "EMAIL_NOT_CONFIRMED",
                message: "This account's email is not confirmed yet. Run `sessionctl login --email-code --confirm-signup` and enter the code from the confirmation email sent at sign-up; after that your password signs in.")
        case .codeInvalid:
            self = .refused(code: "CODE_INVALID", message: error.message)
        case .oauthDenied:
            self = .refused(code: "OAUTH_DENIED", message: error.message)
        case .oauthFailed, .oauthCallbackInvalid, .oauthFlowUnknown, .oauthFlowExpired, .oauthVerifierMismatch:
            // The browser leg ended without a session: refused, nothing saved; try again.
            self = .refused(code: code ?? "OAUTH_FAILED", message: error.message)
        case .storeCorrupted:
            self = .refused(code: "STORE_CORRUPTED", message: error.message)
        case .rateLimited:
            let wait = error.retryAfter.map { " (about \(Int($0.rounded(.up))) s)" } ?? ""
            self = CLIError(exitCode: 4, code: "RATE_LIMITED", message: error.message + wait)
        default:
            self = CLIError(exitCode: 4, code: code ?? "FAILED", message: error.message)
        }
    }
}
