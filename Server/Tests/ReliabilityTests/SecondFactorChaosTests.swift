import Foundation
import SessionSimulation
import Testing

/// Lives with a second factor (issue 38, item 8; docs/RELIABILITY.md): each
/// enrols a TOTP factor and verifies a code, then lives through the faults,
/// kills and clock jumps; every access token the app holds stays `aal2`, with
/// no spurious logout. CI-sized: a few short lives per seed, seconds each.
struct SecondFactorChaosTests {
    static func parameters(seed: UInt64) -> SimulationParameters {
        var parameters = SimulationParameters(lives: 4, days: 3, seed: seed, parallelism: 2)
        parameters.secondFactorShare = 1
        parameters.usesPerDay = 3
        parameters.faultRate = 0.15
        parameters.clockChangeChance = 0.1
        parameters.endedShare = 0
        parameters.deviceEvents = false
        return parameters
    }

    @Test(arguments: [20_261_127, 20_261_128, 20_261_129] as [UInt64])
    func livesWithASecondFactorKeepAAL2ThroughFaultsAndClockJumps(seed: UInt64) async throws {
        let report = try await ChaosSimulation(parameters: Self.parameters(seed: seed)).run()
        AdversarialChaosTests.expectEveryInvariant(report, replay: "SecondFactorChaosTests, seed \(seed)")
        let enrolled = report.lives.filter(\.hasSecondFactor).count
        #expect(enrolled == report.lives.count)
        let names = report.invariants.map(\.name)
        #expect(names.contains { $0.hasPrefix("sessions dropped to AAL1") })
        let refreshes = report.lives.map(\.refreshes).reduce(0, +)
        #expect(refreshes > 0, "the lives must refresh for the check to mean anything")
    }

    @Test func aServerThatDropsTheLevelIsCaught() async throws {
        var parameters = Self.parameters(seed: 20_261_127)
        parameters.sabotage = .sessionLevelDropped
        let report = try await ChaosSimulation(parameters: parameters).run()
        let broken = report.broken
        #expect(broken.contains { $0.hasPrefix("sessions dropped to AAL1") }, "broken: \(broken)")
    }
}
