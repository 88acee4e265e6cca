/// What a chaos run simulates. The defaults are the published configuration.
public struct SimulationParameters: Sendable {
    /// How many app lives.
    public var lives: Int
    /// How long each life lasts (a life ended by idleness runs past it).
    public var days: Double
    /// The run's seed; every life's plan derives from it.
    public var seed: UInt64
    /// Lives run side by side, each group against its own live server.
    public var parallelism: Int
    /// Only these lives (to replay a failure); nil for all.
    public var onlyLives: [Int]?

    /// Mean app uses (foregrounds) per day.
    public var usesPerDay: Double = 2
    /// Probability that a request meets an injected fault.
    public var faultRate: Double = 0.08
    /// The apps' request timeout, in real seconds: what a stall or a lost
    /// response costs. Whole seconds: FoundationNetworking turns less than one into none.
    public var requestTimeout: Double = 1
    /// Per gap between uses: the device goes offline for minutes to days.
    public var offlineChance: Double = 0.08
    /// Per gap: the OS kills the app in the background.
    public var backgroundKillChance: Double = 0.08
    /// Per use: killed while a refresh is on the wire (the server commits, the response is lost).
    public var midRefreshKillChance: Double = 0.03
    /// Per use: killed in the middle of saving a refreshed session.
    public var midWriteKillChance: Double = 0.03
    /// Share of lives with an app extension sharing the store.
    public var extensionShare: Double = 0.25
    /// Per use of such a life: the extension runs at the same time as the app.
    public var extensionUseChance: Double = 0.3
    /// Share of lives that are genuinely ended (idle 30+ days, global sign-out, account deleted).
    public var endedShare: Double = 0.15
    /// The largest device clock error, in seconds, either way.
    public var maximumSkew: Double = 300
    /// Share of lives whose device clock is off by hours to days.
    public var largeSkewShare: Double = 0
    /// The largest such error, in seconds, either way.
    public var maximumLargeSkew: Double = 3 * 86_400
    /// Per gap between uses: the device clock is changed by hours (a person setting it, travel).
    public var clockChangeChance: Double = 0
    /// Share of lives whose server answers carry no `Date` header (the client cannot learn the server's clock).
    public var noDateShare: Double = 0
    /// Whether requests meet the intermediaries' answers too (a proxy's HTML 401/403,
    /// an API gateway's "Invalid API key", a captive portal, a redirect, a slow body).
    public var intermediaryFaults = false
    /// Whether the servers hand a never-used successor to a client that lost
    /// it (ours do). Off, they behave like backends without that recovery:
    /// a lost rotation answer presented after the grace ends the family, and
    /// such logouts are allowed but counted apart (`lostAnswerLogouts`).
    public var successorRecovery = true
    /// Per gap between uses (targeted world, issue 31 row 11): the extension
    /// runs twice while the app stays suspended, each time after the access
    /// token expired, so the app wakes holding a token two rotations old.
    public var extensionWhileSuspendedChance: Double = 0
    /// Share of lives whose server is GoTrue before v2.164: refresh refusals
    /// as OAuth's `invalid_grant` with a description and no code (issue 31, row 4).
    public var oldGoTrueShare: Double = 0
    /// Per use: the auth server rotated its signing key and the app's API
    /// (a resource server with a stale JWKS) rejects every token for ten minutes (issue 31, row 3).
    public var staleKeyChance: Double = 0
    /// Per use: `/token` answers 500 for six hours while the app stays in the foreground (issue 31, row 2).
    public var outageChance: Double = 0
    /// Whether the app's own API origin refuses one token it accepted before,
    /// once per life (``AppOriginRejection``; the targeted world, issue 44): a 401
    /// that `send` beside the client actor must hand to the engine.
    public var appOriginRejection = false
    /// Whether lives also play device events (issue 31, rows 5–10: `DeviceEvent`).
    public var deviceEvents = true
    /// One life in this many plays one after its app life (every life in a device-events-only run).
    public var deviceEventEvery = 4
    /// Only the device events, no app lives (their planted defects' CI runs).
    public var deviceEventsOnly = false
    /// Share of lives that enrol a second factor after sign-up and must keep
    /// `aal2` to the end (issue 38, item 8). 0 draws nothing, so other runs' lives are unchanged.
    public var secondFactorShare: Double = 0
    /// A deliberate defect, to show the invariants catch one (nil in real runs).
    public var sabotage: HarnessSabotage?
    /// Share of lives that sign in with a passkey instead of a password (issue 39, item 11;
    /// docs/RELIABILITY.md). Drawn apart from each life's random stream: 0 leaves every life as it was.
    public var passkeyShare: Double = 0
    /// Share of lives whose person starts anonymously (issue 40, item 6; docs/RELIABILITY.md,
    /// "Anonymous lives"); about half of them later become permanent. Drawn apart from each
    /// life's random stream, as `passkeyShare`: 0 leaves every life as it was.
    public var anonymousShare: Double = 0
    /// Share of lives whose client proves possession of a device key (DPoP, issue 43, item 11;
    /// docs/RELIABILITY.md, "DPoP lives"). Drawn apart from each life's random stream: 0 leaves
    /// every life as it was.
    public var dpopShare: Double = 0
    /// An app whose error handler calls `signOut()` when a request of an anonymous
    /// person fails transiently, without the acknowledgement: the SDK's guard must
    /// refuse it, and no account may be lost (AnonymousLifeTests). Off in real runs.
    public var carelessAnonymousSignOut = false

    /// The adversarial configuration (issue "A chaos harness that can fail"):
    /// clocks off by days and changed mid-life, answers without `Date`, and
    /// the intermediaries' answers in the fault menu.
    public mutating func makeAdversarial() {
        largeSkewShare = 0.3
        clockChangeChance = 0.05
        noDateShare = 0.1
        intermediaryFaults = true
        oldGoTrueShare = 0.2
        staleKeyChance = 0.03
        outageChance = 0.0005
    }

    public init(lives: Int, days: Double = 30, seed: UInt64, parallelism: Int = 8, onlyLives: [Int]? = nil) {
        self.lives = lives
        self.days = days
        self.seed = seed
        self.parallelism = max(1, parallelism)
        self.onlyLives = onlyLives
    }

    /// The lives this run simulates.
    var lifeIndices: [Int] { onlyLives ?? Array(0..<lives) }
}
