import Foundation
import SessionCore

/// Everything `auth-server serve` and the tests can tune.
///
/// Defaults come from ``SessionDefaults`` (docs/DESIGN.md's timing table), so a
/// configuration built with no arguments is the production one.
public struct AuthServerConfiguration: Sendable {
    /// Interface to bind.
    public var host: String
    /// Port to bind; 0 picks a free one.
    public var port: Int
    /// Where sessions live: an SQLite file (default), memory, or PostgreSQL.
    public var database: DatabaseLocation
    /// Lifetime of access tokens, in seconds.
    public var accessTokenTTL: TimeInterval
    /// Lifetime of a refresh token, sliding on each rotation.
    public var refreshTokenTTL: TimeInterval
    /// Absolute cap on a session, however often it rotates.
    public var sessionAbsoluteTTL: TimeInterval
    /// Window in which a rotated-out refresh token gets its successor back.
    public var refreshGrace: TimeInterval
    /// Whether a rotated-out token presented after the grace gets its successor
    /// back when that successor was never used (the answer was lost). Off, the
    /// server behaves as backends without this recovery do: any reuse after
    /// the grace ends the family (docs/PROTOCOL.md, "Rotation: `AuthStore.rotate`").
    public var recoversUnsavedSuccessors: Bool
    /// Clock-skew tolerance on `exp`, `nbf` and `iat`.
    public var leeway: TimeInterval
    /// `iss` of issued tokens, checked on verification.
    public var issuer: String
    /// `aud` of issued tokens, checked on verification.
    public var audience: String
    /// bcrypt cost; 10 in production, tests lower it to stay fast.
    public var bcryptCost: UInt8
    /// Shortest password accepted at sign-up and on a password change (NIST SP 800-63B: at least 8).
    public var minimumPasswordLength: Int
    /// How long after signing in a session may change the password or delete
    /// the account without sending the current password, in seconds.
    public var reauthenticationWindow: TimeInterval
    /// Token-endpoint requests per client IP per minute.
    public var tokenRequestsPerMinutePerIP: Int
    /// Password sign-ins per email per minute.
    public var passwordSignInsPerMinutePerEmail: Int
    /// Password sign-ins per email per hour, beside the per-minute limit: what
    /// bounds the guesses at one password in a day (docs/DESIGN.md, "Rate limits").
    public var passwordSignInsPerHourPerEmail = 60
    /// Email codes presented for one address per hour, right or wrong, across
    /// every code reissued and every purpose: a new code does not reset it.
    public var emailCodeGuessesPerHourPerAddress = 10
    /// As ``emailCodeGuessesPerHourPerAddress``, per day: the bound on the odds
    /// of guessing a code (docs/DESIGN.md, "Email codes and links").
    public var emailCodeGuessesPerDayPerAddress = 20
    /// Gateway (`/v1`) requests per signed-in user per minute.
    public var gatewayRequestsPerMinutePerUser: Int
    /// `PUT /auth/v1/user` per user and minute (each password change costs a bcrypt hash).
    public var userUpdatesPerMinutePerUser: Int
    /// The proxies whose `X-Forwarded-For` is believed (none: the socket peer is the client).
    public var trustedProxies: TrustedProxies
    /// The browser origins allowed to call the API (none by default).
    public var corsOrigins: CORSAllowList
    /// The bearer token `/metrics` asks for; without one, only local unforwarded requests read it.
    public var metricsToken: String?
    /// How often the pruning service deletes expired refresh tokens, in seconds.
    public var pruneInterval: TimeInterval
    /// Seals signing keys at rest; `nil` runs on the key built into the binary (with a warning).
    public var keyEncryptionKey: KeyEncryptionKey?
    /// The source of time for every expiry decision.
    public var clock: any SessionClock
    /// OAuth providers people can sign in with (`/auth/v1/authorize?provider=…`).
    public var oauthProviders: [OAuthProviderConfiguration]
    /// Where OAuth flows may send people back to; empty refuses every redirect.
    public var redirectAllowList: RedirectAllowList
    /// This server's public root, used to build the provider callback
    /// (`<externalURL>/auth/v1/callback`); `nil` derives it from the request's `Host`.
    public var externalURL: URL?
    /// How long the person has to finish at the provider (the `state`'s lifetime), in seconds.
    public var oauthStateLifetime: TimeInterval
    /// How long the app has to exchange the one-time code, in seconds.
    public var oauthCodeLifetime: TimeInterval
    /// Calls the providers' token and user-info endpoints.
    public var oauthHTTPClient: any OAuthHTTPClient
    /// Verified access tokens remembered (by SHA-256, until `exp`); 0 verifies every request.
    public var verifiedTokenCacheCapacity: Int
    /// Seconds a "session is live" answer is reused: the bound on how late a
    /// revocation made outside this process (another replica) takes effect.
    /// Revocations through this server apply at once; 0 reads every time.
    public var sessionCheckCacheTTL: TimeInterval
    /// Seconds a replica serves its key list before reading it again: the
    /// bound on how late `auth-server keys rotate` or `keys retire`, run
    /// elsewhere, reaches this server (docs/DESIGN.md, "Signing keys").
    public var keyRefreshInterval: TimeInterval
    /// Sign in with Apple by ID token; `nil` leaves it off.
    public var apple: AppleSignInConfiguration?
    /// Fetches Apple's keys (tests serve their own).
    public var appleKeysFetcher: any JWKSFetcher = URLSessionJWKSFetcher()
    /// Mail delivery for email codes, links and password resets; `nil` turns them off.
    public var mail: MailConfiguration?
    /// How long an emailed code or link works, in seconds.
    public var emailCodeLifetime: TimeInterval = 600
    /// Wrong guesses of one emailed code before it stops working.
    public var emailCodeAttempts: Int = 5
    /// Emails per address and purpose per minute (GoTrue sends one a minute).
    public var emailsPerMinutePerAddress: Int = 1
    /// Seconds a connection may sit between requests before it is closed.
    public var idleTimeout: TimeInterval = 60
    /// Seconds from a request's head to its last body byte: a client that
    /// sends a body a byte at a time is cut off (issue 29, item 14).
    public var requestReadTimeout: TimeInterval = 30
    /// Connections open at once; more wait in the listen backlog until one closes.
    public var maximumConnections = 1_024
    /// Serve on a non-loopback interface with the key-encryption key built
    /// into the binary (`--insecure-default-key`): anyone with a copy of the
    /// database can then open the signing keys. See ``refusalToServe``.
    public var insecureDefaultKey = false
    /// Emails sent per hour by the whole server (GoTrue's `RATE_LIMIT_EMAIL_SENT`):
    /// the bound on what a flood can make the SMTP account send.
    public var mailsPerHour = 1_000
    /// Requests that may send mail (`/otp`, `/recover`, a sign-up waiting for
    /// confirmation) per client IP per minute, below the token endpoints' limit.
    public var mailRequestsPerMinutePerIP = 5
    /// Emails per recipient domain per minute: one domain is not flooded from many IPs.
    public var mailsPerMinutePerDomain = 60
    /// Confirm a password sign-up's address without asking the mailbox
    /// (`--autoconfirm`, GoTrue's `MAILER_AUTOCONFIRM`). Without mail there is
    /// no other way, so it is then implied (``mailerAutoconfirm``).
    public var autoconfirm = false
    /// Second factors: TOTP enrolment on or off, GoTrue's limits (docs/MFA.md).
    public var mfa = MFAConfiguration()
    /// Passkeys (`--passkeys`); `nil` leaves them off (docs/PASSKEYS.md).
    public var passkeys: PasskeyConfiguration? = nil
    /// `POST /signup` with neither email nor phone signs a person in anonymously
    /// (`--anonymous-sign-ins`, GoTrue's `EXTERNAL_ANONYMOUS_USERS_ENABLED`); off by default.
    public var anonymousSignIns = false
    /// Anonymous sign-ins per client IP per hour (GoTrue's `RATE_LIMIT_ANONYMOUS_USERS`, 30).
    public var anonymousSignInsPerHourPerIP = 30
    /// `/user/identities/…` and `grant_type=id_token` with `link_identity` (`--manual-linking`,
    /// GoTrue's `SECURITY_MANUAL_LINKING_ENABLED`); off by default (docs/ACCOUNTS.md).
    public var manualLinking = false
    /// Every grant that starts or refreshes a session needs a valid DPoP proof
    /// (`--require-dpop`, docs/DPOP.md); off by default, so GoTrue clients keep working unbound.
    public var requireDPoP = false
    /// Every DPoP proof must carry a server nonce (`--dpop-nonce`, docs/DPOP.md "Nonces"); off by default.
    public var dpopNonce = false
    /// What `/.well-known/apple-app-site-association` serves; `nil` answers 404.
    public var appleAppSiteAssociation: AppleAppSiteAssociation? = nil

    /// Whether a password sign-up is confirmed at once and signed in, as
    /// `/settings` reports it: with mail configured and no `--autoconfirm`,
    /// the address must be confirmed by a mailed code or link first
    /// (docs/DESIGN.md, "Confirming a sign-up's address").
    public var mailerAutoconfirm: Bool { autoconfirm || mail == nil }

    /// Creates a configuration; every argument defaults to docs/DESIGN.md's value.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: DatabaseLocation = .sqlite(path: "./data/auth.sqlite"),
        accessTokenTTL: TimeInterval = SessionDefaults.accessTokenLifetime,
        refreshTokenTTL: TimeInterval = SessionDefaults.refreshTokenLifetime,
        sessionAbsoluteTTL: TimeInterval = SessionDefaults.refreshTokenAbsoluteLifetime,
        refreshGrace: TimeInterval = SessionDefaults.refreshReuseGrace,
        recoversUnsavedSuccessors: Bool = true,
        leeway: TimeInterval = SessionDefaults.serverLeeway,
        issuer: String = "sessionkit",
        audience: String = "authenticated",
        bcryptCost: UInt8 = 10,
        minimumPasswordLength: Int = 8,
        reauthenticationWindow: TimeInterval = 600,
        tokenRequestsPerMinutePerIP: Int = SessionDefaults.tokenRequestsPerMinutePerIP,
        passwordSignInsPerMinutePerEmail: Int = 10,
        gatewayRequestsPerMinutePerUser: Int = 600,
        userUpdatesPerMinutePerUser: Int = 10,
        trustedProxies: TrustedProxies = .none,
        corsOrigins: CORSAllowList = .none,
        metricsToken: String? = nil,
        pruneInterval: TimeInterval = 3600,
        keyEncryptionKey: KeyEncryptionKey? = nil,
        clock: any SessionClock = SystemClock(),
        oauthProviders: [OAuthProviderConfiguration] = [],
        redirectAllowList: RedirectAllowList = .empty,
        externalURL: URL? = nil,
        oauthStateLifetime: TimeInterval = 600,
        oauthCodeLifetime: TimeInterval = 300,
        oauthHTTPClient: any OAuthHTTPClient = URLSessionOAuthHTTPClient(),
        verifiedTokenCacheCapacity: Int = 10_000,
        sessionCheckCacheTTL: TimeInterval = 1,
        keyRefreshInterval: TimeInterval = 30
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.accessTokenTTL = accessTokenTTL
        self.refreshTokenTTL = refreshTokenTTL
        self.sessionAbsoluteTTL = sessionAbsoluteTTL
        self.refreshGrace = refreshGrace
        self.recoversUnsavedSuccessors = recoversUnsavedSuccessors
        self.leeway = leeway
        self.issuer = issuer
        self.audience = audience
        self.bcryptCost = bcryptCost
        self.minimumPasswordLength = minimumPasswordLength
        self.reauthenticationWindow = reauthenticationWindow
        self.tokenRequestsPerMinutePerIP = tokenRequestsPerMinutePerIP
        self.passwordSignInsPerMinutePerEmail = passwordSignInsPerMinutePerEmail
        self.gatewayRequestsPerMinutePerUser = gatewayRequestsPerMinutePerUser
        self.userUpdatesPerMinutePerUser = userUpdatesPerMinutePerUser
        self.trustedProxies = trustedProxies
        self.corsOrigins = corsOrigins
        self.metricsToken = metricsToken
        self.pruneInterval = pruneInterval
        self.keyEncryptionKey = keyEncryptionKey
        self.clock = clock
        self.oauthProviders = oauthProviders
        self.redirectAllowList = redirectAllowList
        self.externalURL = externalURL
        self.oauthStateLifetime = oauthStateLifetime
        self.oauthCodeLifetime = oauthCodeLifetime
        self.oauthHTTPClient = oauthHTTPClient
        self.verifiedTokenCacheCapacity = verifiedTokenCacheCapacity
        self.sessionCheckCacheTTL = sessionCheckCacheTTL
        self.keyRefreshInterval = keyRefreshInterval
    }

    /// The provider called `name`, if enabled.
    public func oauthProvider(named name: String) -> OAuthProviderConfiguration? {
        oauthProviders.first { $0.name == name }
    }
}

extension AuthServerConfiguration {
    /// A configuration for tests: in-memory SQLite, a free loopback port,
    /// cheap bcrypt, and the given clock. Every other value is the default.
    public static func testing(
        clock: any SessionClock, database: DatabaseLocation = .sqliteInMemory
    ) -> AuthServerConfiguration {
        AuthServerConfiguration(
            host: "127.0.0.1", port: 0, database: database, bcryptCost: 4, keyEncryptionKey: testingKEK, clock: clock)
    }

    /// A fixed KEK for tests, so they do not each warn about the embedded default.
    static let testingKEK: KeyEncryptionKey = {
        do {
            return try KeyEncryptionKey(rawValue: Data(repeating: 0x5e, count: 32))
        } catch {
            preconditionFailure("32 bytes is a valid KEK")
        }
    }()
}
