import Foundation

extension AuthServerConfiguration {
    /// `--require-dpop`, else `AUTH_SERVER_REQUIRE_DPOP` (true/false, on/off); off by default (docs/DPOP.md).
    ///
    /// - Throws: ``ConfigurationError`` when the variable is neither.
    mutating func resolveDPoP(_ flags: ConfigurationOverrides, environment: [String: String]) throws {
        if let required = flags.requireDPoP {
            requireDPoP = required
            return
        }
        guard let text = environment["AUTH_SERVER_REQUIRE_DPOP"] else { return }
        switch text.lowercased() {
        case "on", "true", "1": requireDPoP = true
        case "off", "false", "0": requireDPoP = false
        default: throw ConfigurationError("AUTH_SERVER_REQUIRE_DPOP must be true or false, got '\(text.prefix(40))'.")
        }
    }
}
