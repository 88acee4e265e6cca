import Foundation
import SessionSimulation
import Testing

/// DPoP lives (issue 43, item 11; docs/RELIABILITY.md, "DPoP lives"): every
/// process of a life signs proofs with the device's one key, in the
/// adversarial world (clocks off by days and changed by hours mid-life,
/// intermediaries' answers, lost responses, kills). No spurious logout and no
/// proof refused for the client's own clock; the planted `iat` from the device
/// clock is caught; a backup restored on a device without the key ends there
/// with `proofKeyLost` and the phone keeps its session. CI-sized: a few lives, seconds.
struct DPoPLifeTests {
    static func parameters(seed: UInt64) -> SimulationParameters {
        var parameters = SimulationParameters(lives: 6, days: 10, seed: seed, parallelism: 6)
        parameters.makeAdversarial()
        parameters.dpopShare = 1
        parameters.usesPerDay = 1.5
        parameters.faultRate = 0.15
        parameters.deviceEvents = false
        return parameters
    }

    static let refusedForOwnClock = "DPoP proofs refused for the client's own clock"

    @Test(arguments: [20_261_143, 20_261_144] as [UInt64])
    func dpopLivesHoldEveryInvariant(seed: UInt64) async throws {
        let report = try await ChaosSimulation(parameters: Self.parameters(seed: seed)).run()
        let dpop = report.lives.compactMap(\.dpop)
        #expect(dpop.count == report.lives.count, "every life made proofs")
        #expect(report.invariants.contains { $0.name.hasPrefix(Self.refusedForOwnClock) })
        print(report.table)
        for invariant in report.invariants {
            #expect(invariant.holds, "\(invariant.name): required \(invariant.required), measured \(invariant.measured)")
        }
        // The trace around each proof refused while the clock was known, to read a failure.
        for life in report.failingLives {
            for (at, line) in life.trace.enumerated() where line.contains("clock known)") {
                print("life \(life.index):\n" + life.trace[max(0, at - 6)...at].joined(separator: "\n"))
            }
        }
        for life in report.failingLives.prefix(10) where life.violations.contains(where: { !$0.contains("refused for their iat") }) {
            Issue.record("life \(life.index) (replay: DPoPLifeTests, seed \(seed) --life \(life.index)): \(life.violations)")
        }
        // The proofs were really checked: sessions bound on the server, and refreshed with proofs.
        #expect(dpop.filter(\.bound).count > 0, "no session was bound to a key on the server")
        #expect(report.lives.reduce(0) { $0 + $1.refreshes } > 0, "the bound sessions never refreshed")
        #expect(report.lives.reduce(0) { $0 + $1.clockChanges } > 0, "no device clock changed")
    }

    /// The planted defect: `iat` from the device clock. Every life makes
    /// proofs under it, and the server refuses those of devices off its clock.
    @Test(arguments: [20_261_143, 20_261_144] as [UInt64])
    func aProofDatedByTheDeviceClockIsCaught(seed: UInt64) async throws {
        var parameters = Self.parameters(seed: seed)
        parameters.dpopShare = 0
        parameters.sabotage = HarnessSabotage(name: "dpop-iat-from-device-clock")
        let report = try await ChaosSimulation(parameters: parameters).run()
        #expect(report.lives.allSatisfy { $0.dpop != nil }, "the plant makes every life a DPoP life")
        #expect(report.broken.contains { $0.hasPrefix(Self.refusedForOwnClock) }, "broken: \(report.broken)")
    }

    /// Row 9 for a DPoP life: the backup's record moves to a device without the
    /// key, which ends the session at launch with `proofKeyLost`, presents no
    /// refresh token, and leaves the phone signed in (life 5 plays the restore).
    @Test func aBackupRestoredWithoutTheKeyEndsThereAndKeepsThePhone() async throws {
        var parameters = SimulationParameters(lives: 6, days: 1, seed: 20_261_143, parallelism: 1, onlyLives: [5])
        parameters.deviceEventsOnly = true
        parameters.dpopShare = 1
        let report = try await ChaosSimulation(parameters: parameters).run()
        #expect(report.lives.first?.dpop?.restoredOnAnotherDevice == true)
        AdversarialChaosTests.expectEveryInvariant(report, replay: "DPoPLifeTests, device restore")
    }
}
