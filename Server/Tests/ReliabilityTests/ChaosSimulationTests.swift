import SessionSimulation
import Testing

/// The CI-sized chaos run: 200 app lives × 30 days against a live server,
/// under every injected fault. The full-size figures are in docs/RELIABILITY.md.
struct ChaosSimulationTests {
    @Test func twoHundredLivesKeepEveryInvariant() async throws {
        var parameters = SimulationParameters(lives: 200, days: 30, seed: 20_261_122, parallelism: 16)
        // CI budget: fewer uses than the published run, with more faults per request.
        parameters.usesPerDay = 0.75
        parameters.faultRate = 0.15
        let report = try await ChaosSimulation(parameters: parameters).run()
        print(report.table)
        #expect(report.lives.count == 200)
        #expect(report.endedLives.count > 0, "the run must include genuinely ended lives")
        for invariant in report.invariants {
            #expect(invariant.holds, "\(invariant.name): required \(invariant.required), measured \(invariant.measured)")
        }
        for life in report.failingLives.prefix(10) {
            Issue.record("life \(life.index) (replay: reliability --seed 20261122 --life \(life.index)): \(life.violations)")
        }
        // A failure that depends on CI's timing may not replay alone: its trace, as it happened.
        for life in report.failingLives.prefix(2) {
            print("trace of life \(life.index), its last 300 lines:\n" + life.trace.suffix(300).joined(separator: "\n"))
        }
        // The zeros mean something only if the run met what it claims to survive.
        let shortfalls = report.shortfalls(below: SimulationReport.CoverageFloors(faultsOnRefreshEach: 20, killsEach: 50))
        #expect(shortfalls.isEmpty, "coverage below the floors: \(shortfalls)")
        // The server's side: lost answers and mid-refresh kills were recovered, and nothing was reused.
        let outcomes = report.serverRefreshOutcomes.counts
        #expect(outcomes["rotated", default: 0] > 0)
        #expect(outcomes["replayedWithinGrace", default: 0] + outcomes["recoveredUnsavedSuccessor", default: 0] > 0)
        #expect(outcomes["reuseDetected", default: 0] == 0)
    }
}

/// The adversarial configuration, CI-sized: clocks off by days and changed
/// mid-life, answers without `Date`, the intermediaries' answers. The real
/// client keeps every invariant.
struct AdversarialChaosTests {
    static func parameters(lives: Int, seed: UInt64) -> SimulationParameters {
        var parameters = SimulationParameters(lives: lives, days: 10, seed: seed, parallelism: 12)
        parameters.usesPerDay = 1.5
        parameters.faultRate = 0.15
        parameters.makeAdversarial()
        return parameters
    }

    @Test func theAdversarialWorldKeepsEveryInvariant() async throws {
        let report = try await ChaosSimulation(parameters: Self.parameters(lives: 48, seed: 20_261_123)).run()
        Self.expectEveryInvariant(report, replay: "reliability --adversarial --days 10 --seed 20261123")
    }

    /// Prints the table and records each broken invariant and failing life, with the command that replays it.
    static func expectEveryInvariant(_ report: SimulationReport, replay: String) {
        print(report.table)
        for invariant in report.invariants {
            #expect(invariant.holds, "\(invariant.name): required \(invariant.required), measured \(invariant.measured)")
        }
        for life in report.failingLives.prefix(10) {
            Issue.record("life \(life.index) (replay: \(replay) --life \(life.index)): \(life.violations)")
        }
    }
}

/// The harness itself can fail: with each planted defect some invariant breaks.
/// (CI fails here if a sabotage goes undetected.) `install-before-persist` is
/// the one a black-box run cannot see — no request falls between the install
/// and the save — and `PlantedOrderingTests` catches it instead.
struct ChaosSimulationSabotageTests {
    static let seenByTheHarness = HarnessSabotage.all.filter {
        // The device events' own defects run in `DeviceEventSabotageTests`, on device events alone.
        $0.name != "install-before-persist" && !DeviceEvent.allCases.map(\.plantedDefect).contains($0)
    }

    @Test(arguments: seenByTheHarness)
    func aPlantedDefectBreaksAnInvariant(sabotage: HarnessSabotage) async throws {
        var parameters = AdversarialChaosTests.parameters(lives: 24, seed: 20_261_124)
        parameters.sabotage = sabotage
        let report = try await ChaosSimulation(parameters: parameters).run()
        #expect(!report.holds, "sabotage \(sabotage.name) went undetected:\n\(report.table)")
        print("sabotage \(sabotage.name): caught by \(report.broken.joined(separator: "; "))")
        // Each failing life carries its last steps (`reliability --trace-file`), and no token in them.
        for life in report.failingLives {
            #expect(life.trace.count > 2, "life \(life.index) failed without a trace")
            #expect(!life.trace.contains { $0.contains("eyJ") }, "life \(life.index)'s trace shows a JWT")
        }
    }
}
