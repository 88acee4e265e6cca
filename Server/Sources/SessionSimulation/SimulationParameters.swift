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
    /// A deliberate defect, to show the invariants catch one (nil in real runs).
    public var sabotage: Sabotage?

    /// Defects the harness can plant in the client's surroundings.
    public enum Sabotage: String, Sendable, CaseIterable {
        /// The store acknowledges writes but keeps nothing (a broken keychain wrapper, say).
        case storeDropsWrites
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
