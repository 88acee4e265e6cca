import Foundation
import Testing
@testable import SessionKit
import SessionKitTesting

/// The store behind the gate, on the simulated keychain's documented answers:
/// each window asks when it should, and no refusal loses the record.
struct BiometricGateTests {
    @Test func everyReadAsksOnEveryLoadButNotForTheSaveAfterIt() async throws {
        let f = BiometricFixture(.everyRead)
        try await f.store.save(KeychainFixture.record())
        #expect(f.biometrics.sheetsShown == 0)  // adding an item never asks
        _ = try await f.store.load()
        try await f.store.save(KeychainFixture.record(access: "a2", refresh: "r2"))
        #expect(f.biometrics.sheetsShown == 1)
        _ = try await f.store.load()
        #expect(f.biometrics.sheetsShown == 2)
    }

    @Test func oncePerLaunchAsksOnce() async throws {
        let f = BiometricFixture(.oncePerLaunch)
        try await f.store.save(KeychainFixture.record())
        for _ in 0..<3 { _ = try await f.store.load() }
        await f.clock.advance(by: 86_400)
        _ = try await f.store.load()
        #expect(f.biometrics.sheetsShown == 1)
    }

    @Test func timeoutAsksAgainOnlyAfterItsSecondsOnTheClock() async throws {
        let f = BiometricFixture(.timeout(300))
        try await f.store.save(KeychainFixture.record())
        _ = try await f.store.load()
        await f.clock.advance(by: 299)
        _ = try await f.store.load()
        #expect(f.biometrics.sheetsShown == 1)
        await f.clock.advance(by: 1)
        _ = try await f.store.load()
        #expect(f.biometrics.sheetsShown == 2)
    }

    @Test func oncePerForegroundAsksAgainAfterTheBackground() async throws {
        let f = BiometricFixture(.oncePerForeground)
        try await f.store.save(KeychainFixture.record())
        _ = try await f.store.load()
        _ = try await f.store.load()
        #expect(f.biometrics.sheetsShown == 1)
        f.gate.appDidEnterBackground()
        f.gate.appWillEnterForeground()
        _ = try await f.store.load()
        #expect(f.biometrics.sheetsShown == 2)
    }

    @Test func cancelAndFailureKeepTheRecordAndTheNextCheckContinues() async throws {
        let f = BiometricFixture(.oncePerLaunch)
        let record = KeychainFixture.record()
        try await f.store.save(record)
        let stored = f.storedData
        f.biometrics.answerNextChecks(.userCanceled, .authFailed)
        #expect(await f.loadReason() == .cancelled)
        #expect(await f.loadReason() == .failed)
        #expect(f.storedData == stored)
        #expect(try await f.store.load()?.refreshToken == record.refreshToken)
        #expect(f.biometrics.sheetsShown == 3)
    }

    @Test func aDueCheckInTheBackgroundWaitsWithoutUI() async throws {
        let f = BiometricFixture(.oncePerForeground)
        try await f.store.save(KeychainFixture.record())
        f.gate.appDidEnterBackground()
        #expect(await f.loadReason() == .needsForeground)
        #expect(f.biometrics.sheetsShown == 0)
        #expect(f.storedData != nil)
        f.gate.appWillEnterForeground()
        #expect(try await f.store.load() != nil)
    }

    @Test func anOpenGateServesTheBackgroundWithoutUI() async throws {
        let f = BiometricFixture(.oncePerLaunch)
        try await f.store.save(KeychainFixture.record())
        _ = try await f.store.load()
        f.gate.appDidEnterBackground()
        #expect(try await f.store.load() != nil)
        try await f.store.save(KeychainFixture.record(access: "a2", refresh: "r2"))
        #expect(f.biometrics.sheetsShown == 1)
    }

    @Test func anExtensionNeverPresentsUI() async throws {
        let f = BiometricFixture(.everyRead, presentsUserInterface: false)
        try await f.store.save(KeychainFixture.record())
        #expect(await f.loadReason() == .needsForeground)
        #expect(f.biometrics.sheetsShown == 0)
    }

    @Test func aBiometryChangeIsToldAndDeletesNothingUntilANewSignIn() async throws {
        let f = BiometricFixture(.oncePerLaunch)
        try await f.store.save(KeychainFixture.record())
        let stored = try #require(f.storedData)
        f.biometrics.enrollAnew()
        #expect(await f.loadReason() == .biometryChanged)
        #expect(await f.loadReason() == .biometryChanged)  // read again: still told, never "signed out"
        #expect(f.storedData == stored)
        // The person signs in again: the new session replaces the invalidated item.
        try await f.store.save(KeychainFixture.record(access: "a2", refresh: "r2"))
        #expect(try await f.store.load()?.refreshToken == "r2")
    }

    @Test func userPresenceSurvivesABiometryChange() async throws {
        let f = BiometricFixture(.oncePerLaunch, protection: .userPresence)
        try await f.store.save(KeychainFixture.record())
        f.biometrics.enrollAnew()
        #expect(try await f.store.load() != nil)
    }

    @Test func aSignOutDeletesTheRecordAndItsMarker() async throws {
        let f = BiometricFixture(.oncePerLaunch)
        try await f.store.save(KeychainFixture.record())
        try await f.store.clear()
        #expect(f.process.accounts.isEmpty)
        #expect(try await f.store.load() == nil)
    }

    @Test func theItemIsWrittenWhenPasscodeSetThisDeviceOnly() async throws {
        let f = BiometricFixture(.oncePerLaunch)
        try await f.store.save(KeychainFixture.record())
        #expect(f.process.storedItem(f.store.item)?.accessibility == .whenPasscodeSetThisDeviceOnly)
    }
}
