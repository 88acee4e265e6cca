/// The targeted world (issue 31, row 11): every planted defect must act in
/// it, whatever the seed.
///
/// The adversarial world catches each defect with one seed and misses some
/// with others: `skip-lock-and-reread` needs a process holding a token that
/// another process rotated twice, and in that world the app refreshes as soon
/// as it resumes, before its extension runs, so the two rarely hold different
/// tokens. A bigger random run would find it more often at a higher price;
/// this world puts the defects' preconditions in every life instead: an
/// extension in every life that also runs while the app is suspended,
/// several processes at expiry, answers lost after the server committed
/// (kills mid-refresh and mid-write, more faults), more genuine ends, and
/// one 401 on the app's own origin (``AppOriginRejection``).
extension SimulationParameters {
    /// The adversarial world with every defect's precondition made frequent.
    public mutating func makeTargeted() {
        makeAdversarial()
        extensionShare = 1
        extensionUseChance = 0.5
        extensionWhileSuspendedChance = 0.4
        midRefreshKillChance = 0.1
        midWriteKillChance = 0.1
        endedShare = 0.3
        oldGoTrueShare = 0.75
        staleKeyChance = 0.15
        outageChance = 0.03
        faultRate = max(faultRate, 0.2)
        appOriginRejection = true
    }

    /// The CI size of the targeted world: what `ChaosSimulationSabotageTests`
    /// runs for each sabotage, and what `reliability --detection-rate` measures.
    public static func targeted(seed: UInt64, lives: Int = 24, days: Double = 10) -> SimulationParameters {
        var parameters = SimulationParameters(lives: lives, days: days, seed: seed, parallelism: 12)
        parameters.usesPerDay = 1.5
        parameters.faultRate = 0.15
        parameters.makeTargeted()
        return parameters
    }
}
