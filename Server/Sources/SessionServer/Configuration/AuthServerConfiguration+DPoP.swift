import Foundation

extension AuthServerConfiguration {
    /// `--require-dpop`, else `AUTH_SERVER_REQUIRE_DPOP` (true/false, on/off); off by default (docs/DPOP.md).
    /// `--dpop-nonce`, else `AUTH_SERVER_DPOP_NONCE`, the same way; off by default.
    ///
    /// - Throws: ``ConfigurationError`` when a variable is neither.
    mutating func resolveDPoP(_ flags: ConfigurationOverrides, environment: [String: String]) throws {
        requireDPoP = try flags.requireDPoP ?? Self.switchValue("AUTH_SERVER_REQUIRE_DPOP", environment) ?? requireDPoP
        dpopNonce = try flags.dpopNonce ?? Self.switchValue("AUTH_SERVER_DPOP_NONCE", environment) ?? dpopNonce
    }

    private static func switchValue(_ name: String, _ environment: [String: String]) throws -> Bool? {
        guard let text = environment[name] else { return nil }
        switch text.lowercased() {
        case "on", "true", "1": return true
        case "off", "false", "0": return false
        default: throw ConfigurationError("\(name) must be true or false, got '\(text.prefix(40))'.")
        }
    }
}
