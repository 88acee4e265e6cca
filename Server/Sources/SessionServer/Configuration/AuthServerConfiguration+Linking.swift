import Foundation

extension AuthServerConfiguration {
    /// Identity linking from `--manual-linking`, else `AUTH_SERVER_MANUAL_LINKING`
    /// (on/off); off by default, as GoTrue's `SECURITY_MANUAL_LINKING_ENABLED`
    /// (docs/ACCOUNTS.md, "Linked identities (server)").
    ///
    /// - Throws: ``ConfigurationError`` when the variable is neither on nor off.
    mutating func resolveManualLinking(_ flags: ConfigurationOverrides, environment: [String: String]) throws {
        if let enabled = flags.manualLinking {
            manualLinking = enabled
            return
        }
        guard let text = environment["AUTH_SERVER_MANUAL_LINKING"] else { return }
        switch text.lowercased() {
        case "on", "true", "1": manualLinking = true
        case "off", "false", "0": manualLinking = false
        default: throw ConfigurationError("AUTH_SERVER_MANUAL_LINKING must be on or off, got '\(text.prefix(40))'.")
        }
    }
}
