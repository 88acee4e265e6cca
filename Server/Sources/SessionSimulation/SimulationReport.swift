import Foundation

/// The invariants and figures of a whole run.
public struct SimulationReport: Sendable {
    public let parameters: SimulationParameters
    public let lives: [LifeReport]
    public let wallSeconds: Double
    /// Faults whose device draws and proxy injections disagree (``FaultReconciliation``).
    public let unreconciled: [String]
    /// How the servers answered refreshes, summed over the run.
    public let serverRefreshOutcomes: ServerRefreshOutcomes

    public init(
        parameters: SimulationParameters, lives: [LifeReport], wallSeconds: Double, unreconciled: [String] = [],
        serverRefreshOutcomes: ServerRefreshOutcomes = ServerRefreshOutcomes()
    ) {
        self.parameters = parameters
        self.lives = lives
        self.wallSeconds = wallSeconds
        self.unreconciled = unreconciled
        self.serverRefreshOutcomes = serverRefreshOutcomes
    }

    /// One invariant: what is counted, what is required, what was found.
    public struct Invariant: Sendable {
        public let name: String
        public let required: String
        public let measured: Int
        public let holds: Bool
    }

    public var endedLives: [LifeReport] { lives.filter { $0.ending != nil } }

    public var invariants: [Invariant] {
        let ended = lives.filter(\.expectsOneExpiry)
        let byLostAnswer = ended.filter { $0.ending == nil }.count
        let endedName = byLostAnswer == 0 ? "\(ended.count) ended lives" : "\(ended.count) ended lives (\(byLostAnswer) by a lost answer)"
        let wrongExpiry = lives.filter { $0.sessionExpiredEvents != ($0.expectsOneExpiry ? 1 : 0) }.count
        func sum(_ key: KeyPath<LifeReport, Int>) -> Int { lives.reduce(0) { $0 + $1[keyPath: key] } }
        return [
            Invariant(name: "spurious logouts (signed out while the server held the family)", required: "0",
                      measured: sum(\.spuriousLogouts), holds: sum(\.spuriousLogouts) == 0),
            Invariant(name: "sessions lost from the store", required: "0",
                      measured: sum(\.lostSessions), holds: sum(\.lostSessions) == 0),
            Invariant(name: "reuse detections caused by the client", required: "0",
                      measured: sum(\.reuseDetections), holds: sum(\.reuseDetections) == 0),
            Invariant(name: "401s reaching the app while the session was valid", required: "0",
                      measured: sum(\.unauthorizedWhileValid), holds: sum(\.unauthorizedWhileValid) == 0),
            Invariant(name: "requests answered notSignedIn while the session lived", required: "0",
                      measured: sum(\.notSignedInWhileLive), holds: sum(\.notSignedInWhileLive) == 0),
            Invariant(name: "sessionExpired events in \(endedName)", required: "\(ended.count) (1 each)",
                      measured: ended.reduce(0) { $0 + $1.sessionExpiredEvents }, holds: wrongExpiry == 0),
            Invariant(name: "ended lives still signed in at relaunch", required: "0",
                      measured: sum(\.signedInAfterEnd), holds: sum(\.signedInAfterEnd) == 0),
            Invariant(name: "faults drawn but not injected by the proxy, or injected but not drawn", required: "0",
                      measured: unreconciled.count, holds: unreconciled.isEmpty),
            Invariant(name: "transient failures that no fault or offline window explains", required: "0",
                      measured: sum(\.unexplainedTransients), holds: sum(\.unexplainedTransients) == 0),
            Invariant(name: "expired access tokens sent while the server's clock was known", required: "0",
                      measured: sum(\.expiredTokensSent), holds: sum(\.expiredTokensSent) == 0),
        ] + secondFactorInvariants + anonymousInvariants + dpopInvariants + fieldInvariants + deviceInvariants
    }

    public var holds: Bool { invariants.allSatisfy(\.holds) }

    /// The invariants a run broke, by name (a sabotaged run must break at least one).
    public var broken: [String] { invariants.filter { !$0.holds }.map(\.name) }

    public var failingLives: [LifeReport] { lives.filter { !$0.violations.isEmpty } }

    /// The table `reliability` prints.
    public var table: String {
        func sum(_ key: KeyPath<LifeReport, Int>) -> Int { lives.reduce(0) { $0 + $1[keyPath: key] } }
        var lines: [String] = []
        let days = lives.reduce(0) { $0 + $1.simulatedDays }
        lines.append("SessionKit chaos simulation — \(lives.count) lives, \(Int(parameters.days)) days, seed \(parameters.seed)"
            + (parameters.intermediaryFaults ? ", adversarial" : "") + (parameters.successorRecovery ? "" : ", no successor recovery")
            + (parameters.sabotage.map { ", sabotage \($0.name)" } ?? ""))
        lines.append(String(format: "simulated %.0f app-days in %.1f s wall", days, wallSeconds))
        lines.append("")
        lines.append("| invariant | required | measured | |")
        lines.append("|---|---|---|---|")
        for invariant in invariants {
            lines.append("| \(invariant.name) | \(invariant.required) | \(invariant.measured) | \(invariant.holds ? "ok" : "BROKEN") |")
        }
        lines.append("")
        let endings = Ending.allCases.map { kind in "\(kind.rawValue) \(lives.filter { $0.ending == kind }.count)" }
        lines.append("| activity | count |")
        lines.append("|---|---|")
        lines.append("| ended lives | \(endedLives.count) (\(endings.joined(separator: ", "))) |")
        lines.append("| app requests (transient failures shown to the app) | \(sum(\.requests)) (\(sum(\.requestFailuresTransient))) |")
        lines.append("| HTTP requests through the fault proxy | \(sum(\.transportRequests)) |")
        lines.append("| of which met no fault and timed out all the same (a busy machine; a disruption like a fault) | \(sum(\.timeoutsWithoutFault)) |")
        lines.append("| refreshes / adopted from the other process | \(sum(\.refreshes)) / \(sum(\.adoptions)) |")
        lines.append("| relaunches from the store | \(sum(\.relaunches)) |")
        lines.append("| server refresh outcomes | \(serverRefreshOutcomes.summary) |")
        if !parameters.successorRecovery {
            lines.append("| logouts a lost rotation answer explains (allowed without successor recovery) | \(sum(\.lostAnswerLogouts)) in \(lives.filter { $0.lostAnswerLogouts > 0 }.count) lives |")
        }
        lines.append("| kills that fired: background / mid-refresh, rotation committed / mid-refresh, not committed / mid-write | \(sum(\.backgroundKills)) / \(sum(\.midRefreshKills)) / \(sum(\.midRefreshKillsNotCommitted)) / \(sum(\.midWriteKills)) |")
        lines.append("| extension runs sharing the store | \(sum(\.extensionRuns)) |")
        lines.append("| field rows (issue 31) | \(fieldActivity) |")
        if let anonymousActivity { lines.append("| anonymous lives (issue 40) | \(anonymousActivity) |") }
        if let dpopActivity { lines.append("| DPoP lives (issue 43) | \(dpopActivity) |") }
        lines.append("| offline windows (2 min – 3 days) | \(sum(\.offlineWindows)) |")
        lines.append("| device clock changed mid-life | \(sum(\.clockChanges)) |")
        if parameters.deviceEvents { lines.append("| device events played | \(deviceActivity) |") }
        let faults = Fault.allCases.filter { parameters.intermediaryFaults || Fault.classic.contains($0) }.map { fault in
            "\(fault.rawValue) \(lives.reduce(0) { $0 + ($1.faults[fault] ?? 0) })"
        }
        lines.append("| injected faults | \(faults.joined(separator: ", ")) |")
        let onRefresh = Fault.allCases.filter { parameters.intermediaryFaults || Fault.classic.contains($0) }.map { fault in
            "\(fault.rawValue) \(lives.reduce(0) { $0 + ($1.refreshFaults[fault] ?? 0) })"
        }
        lines.append("| of which on refresh requests | \(onRefresh.joined(separator: ", ")) |")
        for mismatch in unreconciled { lines.append("| unreconciled | \(mismatch) |") }
        let failing = failingLives
        if !failing.isEmpty {
            lines.append("")
            lines.append("Failing lives (replay one with --seed \(parameters.seed) --life N):")
            for life in failing.prefix(20) {
                lines.append("  life \(life.index) (ending: \(life.ending?.rawValue ?? "none")): \(life.violations.joined(separator: "; "))")
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension SimulationReport {
    /// What a run must have exercised for its zeros to mean something: each
    /// fault of the menu on refresh requests, and fired kills of each kind.
    public struct CoverageFloors: Sendable {
        public var faultsOnRefreshEach: Int
        public var killsEach: Int

        public init(faultsOnRefreshEach: Int, killsEach: Int) {
            self.faultsOnRefreshEach = faultsOnRefreshEach
            self.killsEach = killsEach
        }
    }

    /// Each floor the run fell below, in words; empty when every floor was met.
    public func shortfalls(below floors: CoverageFloors) -> [String] {
        func sum(_ key: KeyPath<LifeReport, Int>) -> Int { lives.reduce(0) { $0 + $1[keyPath: key] } }
        var found: [String] = []
        for fault in Fault.allCases where parameters.intermediaryFaults || Fault.classic.contains(fault) {
            // `refused` reaches no server; every other fault must have met refreshes.
            let count = lives.reduce(0) { $0 + ($1.refreshFaults[fault] ?? 0) }
            if count < floors.faultsOnRefreshEach {
                found.append("\(fault.rawValue) on refresh requests: \(count) < \(floors.faultsOnRefreshEach)")
            }
        }
        for (name, count) in [
            ("background kills", sum(\.backgroundKills)), ("mid-refresh kills (committed)", sum(\.midRefreshKills)),
            ("mid-write kills", sum(\.midWriteKills)),
        ] where count < floors.killsEach {
            found.append("\(name): \(count) < \(floors.killsEach)")
        }
        return found
    }
}
