import SessionKit

/// A failure `sessionctl` reports to a person: a message they can act on and
/// the exit code scripts branch on.
struct CLIError: Error, Sendable {
    /// Exit codes: 1 not signed in / expired / refused, 2 usage, 3 server
    /// unreachable (still signed in), 4 anything else.
    let exitCode: Int32
    /// The machine-readable code printed with `--json`.
    let code: String
    let message: String

    static func notSignedIn() -> CLIError {
        CLIError(exitCode: 1, code: "NOT_SIGNED_IN", message: "Not signed in — run `sessionctl login`")
    }

    static func expired(_ message: String = "Your session has expired. Please sign in again.") -> CLIError {
        CLIError(exitCode: 1, code: "SESSION_EXPIRED", message: message)
    }

    /// A store behind a biometric gate that did not open (docs/PROTOCOL.md,
    /// "The biometric gate"): the session is kept, so this is never "not signed in".
    static func locked(_ reason: BiometricLockReason) -> CLIError {
        CLIError(exitCode: 1, code: "LOCKED", message: "The saved session is locked (\(reason)) — you are still signed in; unlock it and try again")
    }

    static func unreachable() -> CLIError {
        CLIError(exitCode: 3, code: "UNREACHABLE", message: "Server unreachable — you are still signed in; will retry")
    }

    static func unreachableSignedOut() -> CLIError {
        CLIError(exitCode: 3, code: "UNREACHABLE", message: "Server unreachable — check the address and try again")
    }

    static func usage(_ message: String) -> CLIError {
        CLIError(exitCode: 2, code: "USAGE", message: message)
    }

    static func refused(code: String, message: String) -> CLIError {
        CLIError(exitCode: 1, code: code, message: message)
    }

    static func failed(_ message: String) -> CLIError {
        CLIError(exitCode: 4, code: "FAILED", message: message)
    }
}
