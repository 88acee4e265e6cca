import Foundation
import SessionSimulation
import Testing

/// Passkey lives (issue 39, item 11; docs/RELIABILITY.md): signed in with a
/// passkey by a software authenticator, then the usual faults, kills and
/// clock jumps. CI-sized: a few lives, a few seconds.
struct PasskeyLifeTests {
    static func parameters(seed: UInt64) -> SimulationParameters {
        var parameters = SimulationParameters(lives: 6, days: 10, seed: seed, parallelism: 6)
        parameters.passkeyShare = 1
        parameters.usesPerDay = 1.5
        parameters.faultRate = 0.15
        parameters.clockChangeChance = 0.05
        parameters.deviceEvents = false
        return parameters
    }

    @Test(arguments: [20_261_127, 20_261_128] as [UInt64])
    func passkeyLivesKeepEveryInvariant(seed: UInt64) async throws {
        let report = try await ChaosSimulation(parameters: Self.parameters(seed: seed)).run()
        #expect(report.lives.map(\.passkeySignIns) == Array(repeating: 1, count: 6), "every life signed in with its passkey")
        #expect(report.lives.allSatisfy { $0.passkeyAMRMissing == 0 })
        AdversarialChaosTests.expectEveryInvariant(report, replay: "reliability --passkey-share 1 --lives 6 --days 10 --seed \(seed)")
        #expect(report.lives.reduce(0) { $0 + $1.refreshes } > 0, "the passkey sessions refreshed")
    }

    /// The planted defect: the hand-off keeps the access token but not the refresh token.
    @Test func catchesAPasskeyHandOffThatLosesTheRefreshToken() async throws {
        var parameters = Self.parameters(seed: 20_261_127)
        parameters.sabotage = .passkeyHandOffLosesRefreshToken
        let report = try await ChaosSimulation(parameters: parameters).run()
        #expect(!report.failingLives.isEmpty, "the harness did not catch the lost refresh token")
        #expect(report.invariants.contains { !$0.holds })
    }
}
