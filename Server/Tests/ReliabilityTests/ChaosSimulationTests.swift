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
    }
}

/// The harness itself can fail: with a planted defect the invariants break.
struct ChaosSimulationSabotageTests {
    @Test func aStoreThatDropsWritesBreaksTheInvariants() async throws {
        var parameters = SimulationParameters(lives: 6, days: 5, seed: 7)
        parameters.sabotage = .storeDropsWrites
        let report = try await ChaosSimulation(parameters: parameters).run()
        #expect(!report.holds)
        #expect(report.lives.reduce(0) { $0 + $1.lostSessions + $1.spuriousLogouts } > 0)
    }
}
