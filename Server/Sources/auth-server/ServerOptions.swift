import ArgumentParser
import Foundation
import Logging
import SessionServer

/// Options shared by every subcommand. Each flag falls back to an
/// environment variable (`AUTH_SERVER_PORT`, …), then to docs/DESIGN.md's default.
struct ServerOptions: ParsableArguments {
    @Option(help: "Interface to bind (env AUTH_SERVER_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to bind (env AUTH_SERVER_PORT; default 8080).")
    var port: Int?

    @Option(help: "SQLite file path, :memory:, or postgres://… URL (env AUTH_SERVER_DATABASE; default ./data/auth.sqlite).")
    var database: String?

    @Option(help: "Access token lifetime in seconds (env AUTH_SERVER_ACCESS_TOKEN_TTL; default 3600).")
    var accessTokenTtl: Double?

    @Option(help: "Refresh reuse grace in seconds (env AUTH_SERVER_REFRESH_GRACE; default 10).")
    var refreshGrace: Double?

    @Flag(help: "Do not hand a never-used successor back to a token presented after the grace: such a reuse ends the session, as on backends without this recovery (env AUTH_SERVER_SUCCESSOR_RECOVERY=off).")
    var noSuccessorRecovery = false

    @Flag(help: "Confirm a password sign-up's address without mailing it: the sign-up is signed in at once (env AUTH_SERVER_AUTOCONFIRM=on; default: on only when mail is off). With mail on and this off, a sign-up waits for the code or link mailed to it. See docs/DESIGN.md.")
    var autoconfirm = false

    @Flag(help: "Serve on an interface beyond loopback without a key-encryption key, sealing signing keys with the key built into auth-server (env AUTH_SERVER_INSECURE_DEFAULT_KEY=on). Anyone with a copy of the database can then mint tokens; for throwaway setups only.")
    var insecureDefaultKey = false

    @Flag(help: "Let POST /auth/v1/signup with neither email nor phone sign a person in anonymously (env AUTH_SERVER_ANONYMOUS_SIGN_INS=on; default off, as GoTrue's EXTERNAL_ANONYMOUS_USERS_ENABLED). See docs/ACCOUNTS.md.")
    var anonymousSignIns = false

    @Flag(help: "Let a signed-in person link and unlink provider identities: GET /auth/v1/user/identities/authorize, DELETE /auth/v1/user/identities/{id}, grant_type=id_token with link_identity (env AUTH_SERVER_MANUAL_LINKING=on; default off, as GoTrue's SECURITY_MANUAL_LINKING_ENABLED). See docs/ACCOUNTS.md.")
    var manualLinking = false

    @Flag(help: "Refuse every grant that starts or refreshes a session without a valid DPoP proof (env AUTH_SERVER_REQUIRE_DPOP=true; default off: proofs are optional and bind the session they come with). See docs/DPOP.md.")
    var requireDpop = false

    @Flag(help: "Make every DPoP proof carry a nonce this server hands out in DPoP-Nonce headers (env AUTH_SERVER_DPOP_NONCE=true; default off). Nonces are derived from the key-encryption key, so replicas sharing it agree. See docs/DPOP.md.")
    var dpopNonce = false

    @Option(help: "TOTP second factors: on (default) or off; off stops new enrolments, verified factors keep working (env AUTH_SERVER_MFA_TOTP).")
    var mfaTotp: String?

    @Option(help: "Seconds a connection may sit idle between requests before it is closed (env AUTH_SERVER_IDLE_TIMEOUT; default 60).")
    var idleTimeout: Double?

    @Option(help: "Seconds a request may take to arrive in full, head to last body byte (env AUTH_SERVER_REQUEST_TIMEOUT; default 30).")
    var requestTimeout: Double?

    @Option(help: "Connections open at once; more wait in the backlog (env AUTH_SERVER_MAX_CONNECTIONS; default 1024).")
    var maxConnections: Int?

    @Option(help: "Clock-skew leeway in seconds (env AUTH_SERVER_LEEWAY; default 60).")
    var leeway: Double?

    @Option(help: "JSON file with an array of OAuth providers (env AUTH_SERVER_OAUTH_PROVIDERS; see docs/OAUTH.md).")
    var oauthProviders: String?

    @Option(help: "Comma-separated redirect allow-list for OAuth (env AUTH_SERVER_REDIRECT_ALLOW_LIST; default: none allowed).")
    var redirectAllowList: String?

    @Option(help: "This server's public root URL, for the OAuth callback (env AUTH_SERVER_EXTERNAL_URL; default: from Host).")
    var externalUrl: String?

    @Option(help: "Shortest password accepted, 8 to 72 (env AUTH_SERVER_MINIMUM_PASSWORD_LENGTH; default 8).")
    var minimumPasswordLength: Int?

    @Option(help: "Seconds after sign-in in which a session may change its password or delete the account without the current password (env AUTH_SERVER_REAUTHENTICATION_WINDOW; default 600).")
    var reauthenticationWindow: Double?

    @Option(help: "File with the key that seals signing keys at rest: base64 of 32 bytes, e.g. `openssl rand -base64 32` (env AUTH_SERVER_KEY_ENCRYPTION_KEY_FILE, or the key itself in AUTH_SERVER_KEY_ENCRYPTION_KEY; default: a key built into the binary, with a warning, on loopback only; see --insecure-default-key).")
    var keyEncryptionKeyFile: String?

    @Option(help: "Comma-separated CIDR ranges of the proxies in front of the server, e.g. 10.0.0.0/8,::1; their X-Forwarded-For is believed, the client being the rightmost hop that is not one of them (env AUTH_SERVER_TRUSTED_PROXIES; default: none, the socket peer is the client).")
    var trustedProxies: String?

    @Option(help: "Comma-separated browser origins allowed to call the API, e.g. https://app.example.com, or * for any (env AUTH_SERVER_CORS_ORIGINS; default: none). /metrics answers local requests, or anyone with the bearer token in env AUTH_SERVER_METRICS_TOKEN.")
    var corsOrigins: String?

    @Option(help: "Seconds between reads of the signing keys: how soon `keys rotate` or `keys retire`, run against the shared database, reaches this server (env AUTH_SERVER_KEY_REFRESH_INTERVAL; default 30).")
    var keyRefreshInterval: Double?

    @Option(help: "Comma-separated client IDs that turn on Sign in with Apple by ID token: the app's bundle id and any Services ID (env AUTH_SERVER_APPLE_CLIENT_IDS; default: off).")
    var appleClientIds: String?

    @Option(help: "Where Sign in with Apple's keys are read (env AUTH_SERVER_APPLE_JWKS_URL; default Apple's). For tests, or a mirror.")
    var appleJwksUrl: String?

    @Option(help: "The issuer Apple's ID tokens must name (env AUTH_SERVER_APPLE_ISSUER; default https://appleid.apple.com). For tests.")
    var appleIssuer: String?

    @Option(help: "SMTP server for email codes, links and password resets: smtp://user:pass@host:587 (STARTTLS required), smtps://user:pass@host:465, or smtp://127.0.0.1:25?tls=none for a relay on loopback (env AUTH_SERVER_SMTP_URL; default: mail off). See docs/EMAIL.md.")
    var smtpUrl: String?

    @Option(help: "Sender of every email, e.g. 'Example <auth@example.com>' (env AUTH_SERVER_MAIL_FROM; required with --smtp-url).")
    var mailFrom: String?

    @Option(help: "Directory of email templates overriding the built-in ones: magic_link.{subject,txt,html}, recovery.{subject,txt,html} (env AUTH_SERVER_MAIL_TEMPLATES).")
    var mailTemplates: String?

    @Option(help: "PEM file of certificate authorities to trust for the SMTP server, beside the system's (env AUTH_SERVER_SMTP_CA_FILE).")
    var smtpCaFile: String?

    @Option(help: "Log level (env LOG_LEVEL; default info).")
    var logLevel: String?

    @OptionGroup(title: "Passkeys")
    var passkeyOptions: PasskeyOptions

    func configuration() throws -> AuthServerConfiguration {
        do {
            var overrides = ConfigurationOverrides(
                host: host, port: port, database: database, accessTokenTTL: accessTokenTtl,
                refreshGrace: refreshGrace, successorRecovery: noSuccessorRecovery ? false : nil, leeway: leeway,
                redirectAllowList: redirectAllowList,
                oauthProvidersFile: oauthProviders, externalURL: externalUrl,
                minimumPasswordLength: minimumPasswordLength, reauthenticationWindow: reauthenticationWindow,
                keyEncryptionKeyFile: keyEncryptionKeyFile, trustedProxies: trustedProxies,
                corsOrigins: corsOrigins, keyRefreshInterval: keyRefreshInterval,
                appleClientIDs: appleClientIds, appleJWKSURL: appleJwksUrl, appleIssuer: appleIssuer,
                smtpURL: smtpUrl, mailFrom: mailFrom, mailTemplates: mailTemplates, smtpCAFile: smtpCaFile,
                autoconfirm: autoconfirm ? true : nil, insecureDefaultKey: insecureDefaultKey ? true : nil,
                idleTimeout: idleTimeout, requestReadTimeout: requestTimeout, maximumConnections: maxConnections)
            overrides.mfaTOTP = mfaTotp
            overrides.anonymousSignIns = anonymousSignIns ? true : nil
            overrides.manualLinking = manualLinking ? true : nil
            overrides.requireDPoP = requireDpop ? true : nil
            overrides.dpopNonce = dpopNonce ? true : nil
            return try AuthServerConfiguration.resolve(passkeyOptions.applied(to: overrides))
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }

    func logger() -> Logger {
        var logger = Logger(label: "auth-server")
        let level = logLevel ?? ProcessInfo.processInfo.environment["LOG_LEVEL"]
        logger.logLevel = level.flatMap(Logger.Level.init(rawValue:)) ?? .info
        return logger
    }
}
