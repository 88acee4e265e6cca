import Foundation

extension AuthServerConfiguration {
    /// Anonymous sign-ins from `--anonymous-sign-ins`, else `AUTH_SERVER_ANONYMOUS_SIGN_INS`
    /// (on/off); off by default, as GoTrue's `EXTERNAL_ANONYMOUS_USERS_ENABLED` (docs/ACCOUNTS.md).
    ///
    /// - Throws: ``ConfigurationError`` when the variable is neither on nor off.
    mutating func resolveAnonymousSignIns(_ flags: ConfigurationOverrides, environment: [String: String]) throws {
        if let enabled = flags.anonymousSignIns {
            anonymousSignIns = enabled
            return
        }
        guard let text = environment["AUTH_SERVER_ANONYMOUS_SIGN_INS"] else { return }
        switch text.lowercased() {
        case "on", "true", "1": anonymousSignIns = true
        case "off", "false", "0": anonymousSignIns = false
        default: throw ConfigurationError("AUTH_SERVER_ANONYMOUS_SIGN_INS must be on or off, got '\(text.prefix(40))'.")
        }
    }
}
