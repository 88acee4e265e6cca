import SessionSimulation
import Testing

/// The CI-sized chaos run: 200 app lives × 30 days against a live server,
/// under every injected fault. The full-size figures are in docs/RELIABILITY.md.
struct ChaosSimulationTests {
    @Test func twoHundredLivesKeepEveryInvariant() async throws {
        let parameters = SimulationParameters(lives: 200, days: 30, seed: 20_261_122)
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
