import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// A session a deleted install left in the keychain (which survives the app's
/// deletion, unlike its UserDefaults): kept by default, forgotten on opt-in (issue 26 item 6).
struct KeychainReinstallTests {
    typealias F = KeychainFixture

    /// An app's UserDefaults: deleted with the app.
    final class Defaults: InstallMarker, @unchecked Sendable {
        private let lock = NSLock()
        private var marked = false
        func isMarked() -> Bool { lock.withLock { marked } }
        func mark() { lock.withLock { marked = true } }
    }

    /// The first install saved a session; the app was deleted and installed again.
    static func reinstalled(marker: (any InstallMarker)?) async throws -> F {
        let device = SimulatedDeviceKeychain()
        let first = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]), installMarker: Defaults())
        try await first.store.save(F.record())
        device.uninstall(first.keychain)
        return F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]), installMarker: marker)
    }

    @Test func byDefaultAReinstallFindsTheSession() async throws {
        let again = try await Self.reinstalled(marker: nil)
        #expect(try await again.store.load() == F.record())
    }

    @Test func optedInAReinstallForgetsTheDeletedInstallsSession() async throws {
        let marker = Defaults()
        let again = try await Self.reinstalled(marker: marker)
        #expect(try await again.store.load() == nil)
        #expect(again.keychain.allItems.isEmpty)
        #expect(marker.isMarked())
        // This install's own session is kept from then on.
        try await again.store.save(F.record(access: "second-install"))
        #expect(try await again.store.load() == F.record(access: "second-install"))
    }

    @Test func optedInASessionUnderAnEarlierIdentityIsForgottenToo() async throws {
        let device = SimulatedDeviceKeychain()
        try KeychainIdentityTests.versionOne(on: device)
        let again = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]), installMarker: Defaults())
        #expect(try await again.store.load() == nil)
        #expect(again.keychain.allItems.isEmpty)
    }

    @Test func aLockedFirstLaunchForgetsNothingAndMarksNothing() async throws {
        let marker = Defaults()
        let again = try await Self.reinstalled(marker: marker)
        await again.protectedData.setAvailable(false)
        again.keychain.lockBeforeFirstUnlock(answering: .interactionNotAllowed)
        await #expect(throws: SessionStoreError.deviceLocked("")) { try await again.store.load() }
        #expect(!marker.isMarked())
        again.keychain.unlock()
        #expect(again.keychain.allItems.count == 1)
    }

    @Test func theUserDefaultsMarkerRemembersTheInstall() {
        let suite = "sessionkit-test-\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let marker = UserDefaultsInstallMarker(suiteName: suite)
        #expect(!marker.isMarked())
        marker.mark()
        #expect(UserDefaultsInstallMarker(suiteName: suite).isMarked())
        #expect(!UserDefaultsInstallMarker(suiteName: suite, key: "other").isMarked())
    }
}
