import Foundation
import SessionSimulation
import Testing

/// Anonymous lives (issue 40, item 6; docs/RELIABILITY.md, "Anonymous lives"):
/// the person starts with neither email nor phone, about half of them add an
/// email and a password later, and every path that ends a session meets them
/// (the refresh verdicts under faults, the API's `AUTH_REQUIRED`, a store that
/// refuses a save, a backup restored on another device). No anonymous account
/// may be lost while the server still holds it. CI-sized: a few lives, seconds.
struct AnonymousLifeTests {
    static func parameters(seed: UInt64) -> SimulationParameters {
        var parameters = SimulationParameters(lives: 6, days: 10, seed: seed, parallelism: 6)
        parameters.anonymousShare = 1
        parameters.usesPerDay = 1.5
        parameters.faultRate = 0.15
        parameters.clockChangeChance = 0.05
        parameters.endedShare = 0.3
        parameters.deviceEvents = false
        return parameters
    }

    static let lostAccounts = "anonymous accounts lost while the server still held them"

    @Test(arguments: [20_261_127, 20_261_128] as [UInt64])
    func anonymousLivesLoseNoAccount(seed: UInt64) async throws {
        let report = try await ChaosSimulation(parameters: Self.parameters(seed: seed)).run()
        let anonymous = report.lives.compactMap(\.anonymous)
        #expect(anonymous.count == report.lives.count, "every life started anonymously")
        #expect(report.invariants.contains { $0.name.hasPrefix(Self.lostAccounts) })
        AdversarialChaosTests.expectEveryInvariant(report, replay: "AnonymousLifeTests, seed \(seed)")
        // The paths that end sessions were met, or the zero means nothing.
        #expect(anonymous.reduce(0) { $0 + $1.authRequiredAnswers } > 0, "no AUTH_REQUIRED answered")
        #expect(anonymous.reduce(0) { $0 + $1.storeWriteFailures } > 0, "no save refused")
        #expect(report.lives.reduce(0) { $0 + $1.refreshes } > 0, "the anonymous sessions refreshed")
        #expect(anonymous.contains(where: \.becamePermanent) && anonymous.contains { !$0.becamePermanent })
    }

    /// Row 9 for an anonymous person: the backup restored on a second device
    /// must not cost the phone its session (life 5 plays the device restore).
    @Test func aBackupRestoredOnAnotherDeviceKeepsTheAnonymousAccount() async throws {
        let report = try await ChaosSimulation(parameters: Self.restoreOnly(sabotage: nil)).run()
        #expect(report.lives.first?.anonymous?.restoredOnAnotherDevice == true)
        AdversarialChaosTests.expectEveryInvariant(report, replay: "AnonymousLifeTests, device restore")
    }

    /// The device marker moving with the backup (a planted defect): the
    /// restored device presents the copy, reuse detection ends the family,
    /// and the anonymous account is gone; the invariant must say so.
    @Test func aDeviceMarkerThatMovesLosesTheAnonymousAccountAndIsCaught() async throws {
        let report = try await ChaosSimulation(parameters: Self.restoreOnly(sabotage: .deviceMarkerMoves)).run()
        #expect(report.broken.contains { $0.hasPrefix(Self.lostAccounts) }, "broken: \(report.broken)")
    }

    /// The planted defect: an anonymous session signed out on a transient
    /// failure, the guard passed by. The run must fail, by the new invariant.
    @Test(arguments: [20_261_127, 20_261_128] as [UInt64])
    func anAnonymousSessionSignedOutOnATransientFailureIsCaught(seed: UInt64) async throws {
        var parameters = Self.parameters(seed: seed)
        parameters.sabotage = .anonymousSignedOutOnTransient
        let report = try await ChaosSimulation(parameters: parameters).run()
        #expect(report.broken.contains { $0.hasPrefix(Self.lostAccounts) }, "broken: \(report.broken)")
        #expect(!report.holds)
    }

    /// The same app calling `signOut()` without the acknowledgement: the
    /// SDK's guard refuses every call and no account is lost (without the
    /// guard, this is the planted defect above).
    @Test func theGuardRefusesACarelessSignOutAndKeepsTheAccount() async throws {
        var parameters = Self.parameters(seed: 20_261_127)
        parameters.carelessAnonymousSignOut = true
        let report = try await ChaosSimulation(parameters: parameters).run()
        AdversarialChaosTests.expectEveryInvariant(report, replay: "AnonymousLifeTests, careless sign-out")
        #expect(report.lives.compactMap(\.anonymous).reduce(0) { $0 + $1.signOutsRefused } > 0, "the app never tried to sign out")
    }

    static func restoreOnly(sabotage: HarnessSabotage?) -> SimulationParameters {
        var parameters = SimulationParameters(lives: 6, days: 1, seed: 20_261_127, parallelism: 1, onlyLives: [5])
        parameters.deviceEventsOnly = true
        parameters.anonymousShare = 1
        parameters.sabotage = sabotage
        return parameters
    }
}
