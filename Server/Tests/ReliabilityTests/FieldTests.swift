import Foundation
import SessionSimulation
import Testing

/// The targeted world (issue 31, row 11) with the seed this test run drew:
/// the real client keeps every invariant there too, so what the sabotage
/// matrix catches in it is the defect, not the world.
struct TargetedWorldTests {
    @Test func theTargetedWorldKeepsEveryInvariant() async throws {
        let seed = ChaosSimulationSabotageTests.seed
        let report = try await ChaosSimulation(parameters: .targeted(seed: seed)).run()
        AdversarialChaosTests.expectEveryInvariant(
            report, replay: "swift run --package-path Server reliability --targeted --lives 24 --days 10 --parallelism 12 --uses-per-day 1.5 --seed \(seed)")
        // The rows it exists for did happen.
        #expect(report.table.contains("stale-JWKS windows"), "no field rows in the table")
        let outages = report.lives.reduce(0) { $0 + $1.field.outages }
        let windows = report.lives.reduce(0) { $0 + $1.field.staleKeyWindows }
        #expect(outages > 0 && windows > 0, "the targeted world drew \(outages) outages and \(windows) stale-JWKS windows")
    }
}

/// Sixty devices behind one address against GoTrue's per-IP `/token` limiter
/// (issue 31, row 1), with the seed this test run drew; and the planted
/// `no-jitter` breaks the herd's spread.
struct HerdTests {
    static func replay(_ seed: UInt64, sabotage: String? = nil) -> String {
        "swift run --package-path Server reliability --herd --seed \(seed)" + (sabotage.map { " --sabotage \($0)" } ?? "")
    }

    @Test func theHerdRecoversWithoutALogoutWithinTheBound() async throws {
        let seed = ChaosSimulationSabotageTests.seed
        let report = try await HerdScenario(seed: seed).run()
        print(report.table)
        for invariant in report.invariants {
            #expect(invariant.holds, "\(invariant.name): required \(invariant.required), measured \(invariant.measured); replay: \(Self.replay(seed))")
        }
        #expect(report.limited > 0, "the limiter never answered 429: the herd did not meet it")
    }

    @Test func withoutJitterTheHerdRetriesInStep() async throws {
        let seed = ChaosSimulationSabotageTests.seed
        var scenario = HerdScenario(seed: seed)
        scenario.sabotage = HarnessSabotage(name: "no-jitter")
        let report = try await scenario.run()
        #expect(!report.holds, "no-jitter went undetected; replay: \(Self.replay(seed, sabotage: "no-jitter"))\n\(report.table)")
    }
}
