import ArgumentParser
import SessionServer

/// Passkey flags (docs/PASSKEYS.md), grouped so `serve --help` shows them together.
struct PasskeyOptions: ParsableArguments {
    @Flag(help: "Turn passkeys on: /auth/v1/passkeys (env AUTH_SERVER_PASSKEYS=on; default off). Needs the three --webauthn-rp-* settings.")
    var passkeys = false

    @Option(help: "The WebAuthn RP ID: the domain passkeys belong to, e.g. example.com (env AUTH_SERVER_WEBAUTHN_RP_ID).")
    var webauthnRpId: String?

    @Option(help: "The name authenticators show for this server, e.g. Example (env AUTH_SERVER_WEBAUTHN_RP_DISPLAY_NAME).")
    var webauthnRpDisplayName: String?

    @Option(help: "Comma-separated origins passkey ceremonies may run at, e.g. https://example.com,https://app.example.com (env AUTH_SERVER_WEBAUTHN_RP_ORIGINS).")
    var webauthnRpOrigins: String?

    @Option(help: "Comma-separated TEAMID.bundle.id of the apps served in /.well-known/apple-app-site-association as webcredentials (env AUTH_SERVER_APPLE_APP_IDS; default: not served).")
    var appleAppIds: String?

    @Option(help: "Comma-separated path patterns the apps open as universal links, e.g. /auth/v1/callback* (env AUTH_SERVER_APPLE_APP_LINK_PATHS; default: no applinks).")
    var appleAppLinkPaths: String?

    /// `overrides` with these flags set.
    func applied(to overrides: ConfigurationOverrides) -> ConfigurationOverrides {
        var overrides = overrides
        overrides.passkeys = passkeys ? true : nil
        overrides.webauthnRPID = webauthnRpId
        overrides.webauthnRPDisplayName = webauthnRpDisplayName
        overrides.webauthnRPOrigins = webauthnRpOrigins
        overrides.appleAppIDs = appleAppIds
        overrides.appleAppLinkPaths = appleAppLinkPaths
        return overrides
    }
}
