/// How often each planted defect is caught over many seeds (issue 31,
/// row 11): one seed that catches it proves little if the next one does not.
public struct DetectionRate: Sendable {
    /// One sabotage's result over the seeds.
    public struct Row: Sendable {
        public let sabotage: HarnessSabotage
        /// The seeds whose run broke an invariant.
        public var caught: [UInt64] = []
        /// The seeds whose run held every invariant: the defect went unseen.
        public var missed: [UInt64] = []
        /// The invariants that broke, with how many runs broke each.
        public var brokenBy: [String: Int] = [:]

        public var runs: Int { caught.count + missed.count }
    }

    /// The world each run is drawn in, from its seed.
    public let parameters: @Sendable (UInt64) -> SimulationParameters

    public init(parameters: @escaping @Sendable (UInt64) -> SimulationParameters) {
        self.parameters = parameters
    }

    /// Runs every sabotage in `sabotages` with every seed, one run at a time
    /// (each run already uses the machine's cores through its groups).
    /// - Parameter progress: called after each run with its sabotage, seed and whether it was caught.
    public func measure(
        sabotages: [HarnessSabotage], seeds: [UInt64],
        progress: (@Sendable (HarnessSabotage, UInt64, SimulationReport) -> Void)? = nil
    ) async throws -> [Row] {
        var rows: [Row] = []
        for sabotage in sabotages {
            var row = Row(sabotage: sabotage)
            for seed in seeds {
                var world = parameters(seed)
                world.sabotage = sabotage
                let report = try await ChaosSimulation(parameters: world).run()
                if report.holds { row.missed.append(seed) } else { row.caught.append(seed) }
                for name in report.broken { row.brokenBy[name, default: 0] += 1 }
                progress?(sabotage, seed, report)
            }
            rows.append(row)
        }
        return rows
    }

    /// The table docs/RELIABILITY.md shows: caught in how many runs, the seeds missed.
    public static func table(_ rows: [Row]) -> String {
        var lines = ["| sabotage | caught | seeds missed | invariants that broke (runs) |", "|---|---|---|---|"]
        for row in rows {
            let broken = row.brokenBy.sorted { $0.value > $1.value }.map { "\($0.key) (\($0.value))" }
            lines.append(
                "| `\(row.sabotage.name)` | \(row.caught.count) / \(row.runs) | "
                    + (row.missed.isEmpty ? "none" : row.missed.map(String.init).joined(separator: ", "))
                    + " | \(broken.joined(separator: "; ")) |")
        }
        return lines.joined(separator: "\n")
    }

    /// The sabotages the app lives can see: `install-before-persist` has its
    /// own test (`PlantedOrderingTests`), `no-jitter` acts only in a herd (`HerdScenario`),
    /// and each device event's defect runs on device events alone (`DeviceEventSabotageTests`).
    public static var seenByTheHarness: [HarnessSabotage] {
        let deviceDefects = Set(DeviceEvent.allCases.map(\.plantedDefect.name))
        return HarnessSabotage.all.filter { !seenElsewhere.contains($0.name) && !deviceDefects.contains($0.name) }
    }

    /// The sabotages caught outside the app lives. `dpop-iat-from-device-clock`
    /// (issue 43) is in the matrix: planted, every life is a DPoP life, and the
    /// server refuses their proofs for `iat` (docs/RELIABILITY.md, "DPoP lives").
    public static let seenElsewhere: Set<String> = ["install-before-persist", "no-jitter"]
}
