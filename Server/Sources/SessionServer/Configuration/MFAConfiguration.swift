import Foundation

/// Second factors (docs/MFA.md), with GoTrue's defaults.
public struct MFAConfiguration: Sendable {
    /// Whether TOTP factors can be enrolled (`--mfa-totp on|off`, GoTrue's `MFA_TOTP_ENROLL_ENABLED`).
    /// Off, factors already verified still verify: turning enrolment off locks no one out.
    public var totpEnrollEnabled = true
    /// Factors a user may hold, verified or not (GoTrue's `MFA_MAX_ENROLLED_FACTORS`).
    public var maximumEnrolledFactors = 10
    /// Verified factors a user may hold (GoTrue's `MFA_MAX_VERIFIED_FACTORS`).
    public var maximumVerifiedFactors = 10
    /// How long a challenge may be answered (GoTrue's `MFA_CHALLENGE_EXPIRY_DURATION`).
    public var challengeLifetime: TimeInterval = 300
    /// Challenges, and verifications, per client IP per minute (GoTrue's `RATE_LIMIT_VERIFY`-style limits on `/factors/*`).
    public var requestsPerMinutePerIP = 15

    public init() {}
}

extension AuthServerConfiguration {
    /// `--mfa-totp`, else `AUTH_SERVER_MFA_TOTP`: `on` (the default) or `off`.
    ///
    /// - Throws: ``ConfigurationError`` for any other value.
    mutating func resolveMFA(_ flags: ConfigurationOverrides, environment: [String: String]) throws {
        guard let text = flags.mfaTOTP ?? environment["AUTH_SERVER_MFA_TOTP"] else { return }
        switch text.lowercased() {
        case "on", "true", "1": mfa.totpEnrollEnabled = true
        case "off", "false", "0": mfa.totpEnrollEnabled = false
        default: throw ConfigurationError("--mfa-totp (AUTH_SERVER_MFA_TOTP) must be on or off, got '\(text.prefix(40))'.")
        }
    }
}
