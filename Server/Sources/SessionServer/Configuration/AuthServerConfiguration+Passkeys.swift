import Foundation

extension AuthServerConfiguration {
    /// Passkeys from `--passkeys` (env `AUTH_SERVER_PASSKEYS` on/off), `--webauthn-rp-id`
    /// (`AUTH_SERVER_WEBAUTHN_RP_ID`), `--webauthn-rp-display-name` (`AUTH_SERVER_WEBAUTHN_RP_DISPLAY_NAME`),
    /// `--webauthn-rp-origins` (`AUTH_SERVER_WEBAUTHN_RP_ORIGINS`), and the apple-app-site-association
    /// from `--apple-app-ids` (`AUTH_SERVER_APPLE_APP_IDS`) and `--apple-app-link-paths`
    /// (`AUTH_SERVER_APPLE_APP_LINK_PATHS`); docs/PASSKEYS.md.
    ///
    /// - Throws: ``ConfigurationError`` when passkeys are on without the three
    ///   WebAuthn settings, or one of them is not usable.
    mutating func resolvePasskeys(_ flags: ConfigurationOverrides, environment: [String: String]) throws {
        if let text = flags.appleAppIDs ?? environment["AUTH_SERVER_APPLE_APP_IDS"] {
            let ids = Self.list(text)
            guard !ids.isEmpty else { throw ConfigurationError("AUTH_SERVER_APPLE_APP_IDS lists no app ID (TEAMID.bundle.id).") }
            if let bad = ids.first(where: { !AppleAppSiteAssociation.isAppID($0) }) {
                throw ConfigurationError("'\(bad.prefix(80))' is not an app ID: write the 10-character team ID, a dot and the bundle ID.")
            }
            let paths = Self.list(flags.appleAppLinkPaths ?? environment["AUTH_SERVER_APPLE_APP_LINK_PATHS"] ?? "")
            guard paths.allSatisfy({ $0.hasPrefix("/") }) else {
                throw ConfigurationError("AUTH_SERVER_APPLE_APP_LINK_PATHS must be paths starting with '/', e.g. /auth/v1/callback*.")
            }
            appleAppSiteAssociation = AppleAppSiteAssociation(appIDs: ids, linkPaths: paths)
        }
        var enabled = flags.passkeys ?? false
        if flags.passkeys == nil, let text = environment["AUTH_SERVER_PASSKEYS"] {
            switch text.lowercased() {
            case "on", "true", "1": enabled = true
            case "off", "false", "0": enabled = false
            default: throw ConfigurationError("AUTH_SERVER_PASSKEYS must be on or off, got '\(text.prefix(40))'.")
            }
        }
        guard enabled else { return }
        let rpID = (flags.webauthnRPID ?? environment["AUTH_SERVER_WEBAUTHN_RP_ID"] ?? "").trimmingCharacters(in: .whitespaces)
        let name = (flags.webauthnRPDisplayName ?? environment["AUTH_SERVER_WEBAUTHN_RP_DISPLAY_NAME"] ?? "")
            .trimmingCharacters(in: .whitespaces)
        let origins = Self.list(flags.webauthnRPOrigins ?? environment["AUTH_SERVER_WEBAUTHN_RP_ORIGINS"] ?? "")
        guard !rpID.isEmpty, !name.isEmpty, !origins.isEmpty else {
            throw ConfigurationError(
                """
                --passkeys needs --webauthn-rp-id (the domain passkeys belong to, e.g. example.com), \
                --webauthn-rp-display-name (e.g. Example) and --webauthn-rp-origins (e.g. https://example.com), \
                or AUTH_SERVER_WEBAUTHN_RP_ID, AUTH_SERVER_WEBAUTHN_RP_DISPLAY_NAME and AUTH_SERVER_WEBAUTHN_RP_ORIGINS \
                (docs/PASSKEYS.md).
                """)
        }
        // A domain, never a URL or a host with a port: authenticators hash it as written.
        guard rpID == rpID.lowercased(), !rpID.contains("/"), !rpID.contains(":"), rpID.utf8.count <= 253 else {
            throw ConfigurationError("--webauthn-rp-id must be a lowercase domain such as example.com, not a URL, got '\(rpID.prefix(80))'.")
        }
        for origin in origins {
            guard let url = URL(string: origin), let host = url.host, let scheme = url.scheme,
                scheme == "https" || (scheme == "http" && host == "localhost"), url.path.isEmpty,
                host == rpID || host.hasSuffix("." + rpID)
            else {
                throw ConfigurationError(
                    "'\(origin.prefix(80))' is not a usable WebAuthn origin: write https://host[:port] on \(rpID) or one of its subdomains (http only for localhost).")
            }
        }
        passkeys = PasskeyConfiguration(rpID: rpID, rpDisplayName: name, origins: origins)
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
