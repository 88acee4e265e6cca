import Foundation

/// Values given on the command line; `nil` means "not given".
public struct ConfigurationOverrides: Sendable {
    public var host: String?
    public var port: Int?
    public var database: String?
    public var accessTokenTTL: Double?
    public var refreshGrace: Double?
    /// `false` turns off the recovery of unsaved successors.
    public var successorRecovery: Bool?
    public var leeway: Double?
    /// Comma-separated redirect allow-list (see ``RedirectAllowList``).
    public var redirectAllowList: String?
    /// Path of a JSON file with an array of ``OAuthProviderConfiguration``.
    public var oauthProvidersFile: String?
    /// This server's public root URL.
    public var externalURL: String?
    /// Shortest password accepted (at least 8).
    public var minimumPasswordLength: Int?
    /// Seconds after sign-in in which a session may change the password without the current one.
    public var reauthenticationWindow: Double?
    /// File holding the key-encryption key (base64, or 32 raw bytes).
    public var keyEncryptionKeyFile: String?
    /// Comma-separated CIDR ranges of the proxies whose `X-Forwarded-For` is believed.
    public var trustedProxies: String?
    /// Comma-separated browser origins allowed to call the API.
    public var corsOrigins: String?
    /// Seconds between reads of the signing keys (how soon a rotation elsewhere is seen).
    public var keyRefreshInterval: Double?
    /// Comma-separated client IDs (bundle id, Services ID) that turn Sign in with Apple on.
    public var appleClientIDs: String?
    /// Where Apple's signing keys are read (tests, or a mirror of Apple's JWKS).
    public var appleJWKSURL: String?
    /// The `iss` Apple's ID tokens must carry (tests use their own issuer).
    public var appleIssuer: String?
    /// `smtp://user:pass@host:587` (STARTTLS), `smtps://…` or `smtp://host:port?tls=none` (loopback relay).
    public var smtpURL: String?
    /// The sender of every email: `auth@example.com` or `Example <auth@example.com>`.
    public var mailFrom: String?
    /// A directory whose files override the emails' subject, text and HTML.
    public var mailTemplates: String?
    /// A PEM file of certificate authorities trusted for the SMTP server (beside the system's).
    public var smtpCAFile: String?
    /// `true` confirms a password sign-up's address without mail (`--autoconfirm`).
    public var autoconfirm: Bool?
    /// `true` lets `serve` bind beyond loopback with the built-in key-encryption key (`--insecure-default-key`).
    public var insecureDefaultKey: Bool?
    /// Seconds a connection may sit idle between requests.
    public var idleTimeout: Double?
    /// Seconds a request may take to arrive in full.
    public var requestReadTimeout: Double?
    /// Connections open at once.
    public var maximumConnections: Int?
    /// `on` or `off`: TOTP enrolment (`--mfa-totp`).
    public var mfaTOTP: String?
    /// `true` turns passkeys on (`--passkeys`); they then need the three WebAuthn settings below.
    public var passkeys: Bool? = nil
    /// The WebAuthn RP ID (`--webauthn-rp-id`).
    public var webauthnRPID: String? = nil
    /// The name authenticators show (`--webauthn-rp-display-name`).
    public var webauthnRPDisplayName: String? = nil
    /// Comma-separated origins ceremonies may run at (`--webauthn-rp-origins`).
    public var webauthnRPOrigins: String? = nil
    /// Comma-separated `TEAMID.bundle.id` served in the apple-app-site-association (`--apple-app-ids`).
    public var appleAppIDs: String? = nil
    /// Comma-separated path patterns for `applinks` (`--apple-app-link-paths`).
    public var appleAppLinkPaths: String? = nil
    /// `true` turns anonymous sign-ins on (`--anonymous-sign-ins`).
    public var anonymousSignIns: Bool? = nil
    /// `true` requires a DPoP proof on every grant (`--require-dpop`).
    public var requireDPoP: Bool? = nil
    /// `true` makes every DPoP proof carry a server nonce (`--dpop-nonce`).
    public var dpopNonce: Bool? = nil
    /// `true` turns identity linking on (`--manual-linking`).
    public var manualLinking: Bool? = nil

    public init(
        host: String? = nil, port: Int? = nil, database: String? = nil, accessTokenTTL: Double? = nil,
        refreshGrace: Double? = nil, successorRecovery: Bool? = nil, leeway: Double? = nil, redirectAllowList: String? = nil,
        oauthProvidersFile: String? = nil, externalURL: String? = nil, minimumPasswordLength: Int? = nil,
        reauthenticationWindow: Double? = nil, keyEncryptionKeyFile: String? = nil, trustedProxies: String? = nil,
        corsOrigins: String? = nil, keyRefreshInterval: Double? = nil, appleClientIDs: String? = nil,
        appleJWKSURL: String? = nil, appleIssuer: String? = nil, smtpURL: String? = nil, mailFrom: String? = nil, mailTemplates: String? = nil,
        smtpCAFile: String? = nil, autoconfirm: Bool? = nil, insecureDefaultKey: Bool? = nil, idleTimeout: Double? = nil,
        requestReadTimeout: Double? = nil, maximumConnections: Int? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.requestReadTimeout = requestReadTimeout
        self.maximumConnections = maximumConnections
        self.autoconfirm = autoconfirm
        self.insecureDefaultKey = insecureDefaultKey
        self.appleJWKSURL = appleJWKSURL
        self.appleIssuer = appleIssuer
        self.smtpURL = smtpURL
        self.mailFrom = mailFrom
        self.mailTemplates = mailTemplates
        self.smtpCAFile = smtpCAFile
        self.appleClientIDs = appleClientIDs
        self.keyRefreshInterval = keyRefreshInterval
        self.corsOrigins = corsOrigins
        self.trustedProxies = trustedProxies
        self.keyEncryptionKeyFile = keyEncryptionKeyFile
        self.reauthenticationWindow = reauthenticationWindow
        self.minimumPasswordLength = minimumPasswordLength
        self.redirectAllowList = redirectAllowList
        self.oauthProvidersFile = oauthProvidersFile
        self.externalURL = externalURL
        self.host = host
        self.port = port
        self.database = database
        self.accessTokenTTL = accessTokenTTL
        self.refreshGrace = refreshGrace
        self.successorRecovery = successorRecovery
        self.leeway = leeway
    }
}

extension AuthServerConfiguration {
    /// Resolves each setting from the flag, else its environment variable
    /// (`AUTH_SERVER_HOST`, `AUTH_SERVER_PORT`, `AUTH_SERVER_DATABASE`,
    /// `AUTH_SERVER_ACCESS_TOKEN_TTL`, `AUTH_SERVER_REFRESH_GRACE`, `AUTH_SERVER_SUCCESSOR_RECOVERY` (on/off),
    /// `AUTH_SERVER_LEEWAY`, `AUTH_SERVER_MINIMUM_PASSWORD_LENGTH`,
    /// `AUTH_SERVER_REAUTHENTICATION_WINDOW`, `AUTH_SERVER_TRUSTED_PROXIES`, `AUTH_SERVER_CORS_ORIGINS`,
    /// `AUTH_SERVER_KEY_REFRESH_INTERVAL`, `AUTH_SERVER_AUTOCONFIRM` (on/off), `AUTH_SERVER_APPLE_CLIENT_IDS`, `AUTH_SERVER_APPLE_JWKS_URL`, `AUTH_SERVER_APPLE_ISSUER`,
    /// the mail settings (``resolveMail(_:environment:)``),
    /// `AUTH_SERVER_METRICS_TOKEN` (environment only); the KEK from `--key-encryption-key-file`,
    /// else `AUTH_SERVER_KEY_ENCRYPTION_KEY_FILE`, else `AUTH_SERVER_KEY_ENCRYPTION_KEY`
    /// as base64), else docs/DESIGN.md's default.
    ///
    /// - Throws: ``ConfigurationError`` naming the setting that is not usable.
    public static func resolve(
        _ flags: ConfigurationOverrides, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> AuthServerConfiguration {
        func number(_ name: String) throws -> Double? {
            guard let text = environment[name] else { return nil }
            guard let value = Double(text), value.isFinite else {
                throw ConfigurationError("\(name) must be a number, got '\(text.prefix(40))'.")
            }
            return value
        }
        var configuration = AuthServerConfiguration()
        if let host = flags.host ?? environment["AUTH_SERVER_HOST"] { configuration.host = host }
        if let port = try flags.port.map(Double.init) ?? number("AUTH_SERVER_PORT") {
            guard port == port.rounded(), (0...65_535).contains(port) else {
                throw ConfigurationError("The port must be a whole number from 0 to 65535.")
            }
            configuration.port = Int(port)
        }
        if let database = flags.database ?? environment["AUTH_SERVER_DATABASE"] {
            configuration.database = DatabaseLocation(parsing: database)
        }
        if let ttl = try flags.accessTokenTTL ?? number("AUTH_SERVER_ACCESS_TOKEN_TTL") {
            guard ttl > 0 else { throw ConfigurationError("The access token TTL must be positive.") }
            configuration.accessTokenTTL = ttl
        }
        if let grace = try flags.refreshGrace ?? number("AUTH_SERVER_REFRESH_GRACE") {
            guard grace >= 0 else { throw ConfigurationError("The refresh grace must not be negative.") }
            configuration.refreshGrace = grace
        }
        if let recovery = flags.successorRecovery {
            configuration.recoversUnsavedSuccessors = recovery
        } else if let text = environment["AUTH_SERVER_SUCCESSOR_RECOVERY"] {
            switch text.lowercased() {
            case "on", "true", "1": configuration.recoversUnsavedSuccessors = true
            case "off", "false", "0": configuration.recoversUnsavedSuccessors = false
            default: throw ConfigurationError("AUTH_SERVER_SUCCESSOR_RECOVERY must be on or off, got '\(text.prefix(40))'.")
            }
        }
        if let autoconfirm = flags.autoconfirm {
            configuration.autoconfirm = autoconfirm
        } else if let text = environment["AUTH_SERVER_AUTOCONFIRM"] {
            switch text.lowercased() {
            case "on", "true", "1": configuration.autoconfirm = true
            case "off", "false", "0": configuration.autoconfirm = false
            default: throw ConfigurationError("AUTH_SERVER_AUTOCONFIRM must be on or off, got '\(text.prefix(40))'.")
            }
        }
        if let insecure = flags.insecureDefaultKey {
            configuration.insecureDefaultKey = insecure
        } else if let text = environment["AUTH_SERVER_INSECURE_DEFAULT_KEY"] {
            switch text.lowercased() {
            case "on", "true", "1": configuration.insecureDefaultKey = true
            case "off", "false", "0": configuration.insecureDefaultKey = false
            default: throw ConfigurationError("AUTH_SERVER_INSECURE_DEFAULT_KEY must be on or off, got '\(text.prefix(40))'.")
            }
        }
        if let idle = try flags.idleTimeout ?? number("AUTH_SERVER_IDLE_TIMEOUT") {
            guard idle > 0, idle <= 3600 else { throw ConfigurationError("The idle timeout must be more than 0 and at most 3600 seconds.") }
            configuration.idleTimeout = idle
        }
        if let read = try flags.requestReadTimeout ?? number("AUTH_SERVER_REQUEST_TIMEOUT") {
            guard read > 0, read <= 3600 else {
                throw ConfigurationError("The request timeout must be more than 0 and at most 3600 seconds.")
            }
            configuration.requestReadTimeout = read
        }
        if let cap = try flags.maximumConnections.map(Double.init) ?? number("AUTH_SERVER_MAX_CONNECTIONS") {
            guard cap == cap.rounded(), cap >= 1, cap <= 1_000_000 else {
                throw ConfigurationError("The connection cap must be a whole number from 1 to 1000000.")
            }
            configuration.maximumConnections = Int(cap)
        }
        if let leeway = try flags.leeway ?? number("AUTH_SERVER_LEEWAY") {
            guard leeway >= 0 else { throw ConfigurationError("The leeway must not be negative.") }
            configuration.leeway = leeway
        }
        if let length = try flags.minimumPasswordLength.map(Double.init) ?? number("AUTH_SERVER_MINIMUM_PASSWORD_LENGTH") {
            // 8 is NIST SP 800-63B's floor; 72 is where bcrypt stops reading.
            guard length == length.rounded(), (8...72).contains(length) else {
                throw ConfigurationError("The minimum password length must be a whole number from 8 to 72.")
            }
            configuration.minimumPasswordLength = Int(length)
        }
        if let window = try flags.reauthenticationWindow ?? number("AUTH_SERVER_REAUTHENTICATION_WINDOW") {
            guard window >= 0 else { throw ConfigurationError("The re-authentication window must not be negative.") }
            configuration.reauthenticationWindow = window
        }
        if let interval = try flags.keyRefreshInterval ?? number("AUTH_SERVER_KEY_REFRESH_INTERVAL") {
            // An hour at most: longer would let a retired key verify for longer than operators expect.
            guard interval > 0, interval <= 3600 else {
                throw ConfigurationError("The key refresh interval must be more than 0 and at most 3600 seconds.")
            }
            configuration.keyRefreshInterval = interval
        }
        if let ids = flags.appleClientIDs ?? environment["AUTH_SERVER_APPLE_CLIENT_IDS"] {
            let list = ids.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !list.isEmpty else { throw ConfigurationError("AUTH_SERVER_APPLE_CLIENT_IDS lists no client ID.") }
            configuration.apple = AppleSignInConfiguration(clientIDs: list)
            if let text = flags.appleJWKSURL ?? environment["AUTH_SERVER_APPLE_JWKS_URL"] {
                guard let url = URL(string: text), let scheme = url.scheme, ["https", "http"].contains(scheme), url.host != nil else {
                    throw ConfigurationError("AUTH_SERVER_APPLE_JWKS_URL must be an http(s) URL, got '\(text.prefix(80))'.")
                }
                configuration.apple?.jwksURL = url
            }
            if let issuer = flags.appleIssuer ?? environment["AUTH_SERVER_APPLE_ISSUER"] {
                guard !issuer.isEmpty else { throw ConfigurationError("AUTH_SERVER_APPLE_ISSUER is empty.") }
                configuration.apple?.issuer = issuer
            }
        }
        if let proxies = flags.trustedProxies ?? environment["AUTH_SERVER_TRUSTED_PROXIES"] {
            configuration.trustedProxies = try TrustedProxies(parsing: proxies)
        }
        if let origins = flags.corsOrigins ?? environment["AUTH_SERVER_CORS_ORIGINS"] {
            configuration.corsOrigins = try CORSAllowList(parsing: origins)
        }
        if let token = environment["AUTH_SERVER_METRICS_TOKEN"] {
            guard token.count >= 16 else { throw ConfigurationError("AUTH_SERVER_METRICS_TOKEN must be at least 16 characters.") }
            configuration.metricsToken = token
        }
        do {
            if let file = flags.keyEncryptionKeyFile ?? environment["AUTH_SERVER_KEY_ENCRYPTION_KEY_FILE"] {
                configuration.keyEncryptionKey = try KeyEncryptionKey(file: file)
            } else if let text = environment["AUTH_SERVER_KEY_ENCRYPTION_KEY"] {
                configuration.keyEncryptionKey = try KeyEncryptionKey(base64: text)
            }
        } catch let error as KeyEncryptionError {
            throw ConfigurationError(error.description)
        }
        try configuration.resolveOAuth(flags, environment: environment)
        try configuration.resolveMail(flags, environment: environment)
        try configuration.resolveMFA(flags, environment: environment)
        try configuration.resolvePasskeys(flags, environment: environment)
        try configuration.resolveAnonymousSignIns(flags, environment: environment)
        try configuration.resolveManualLinking(flags, environment: environment)
        try configuration.resolveDPoP(flags, environment: environment)
        return configuration
    }
}
