import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// A device restored from another's backup (docs/PROTOCOL.md, "A device
/// restored from a backup"): a record of a class that moves with a backup is
/// never presented on the device it moved to, so reuse detection never ends
/// the session of the device it came from.
struct KeychainDeviceRestoreTests {
    static let groups = [KeychainFixture.sharedGroup, KeychainFixture.appGroup]

    /// The app's store on `device`.
    static func fixture(
        _ device: SimulatedDeviceKeychain, accessibility: KeychainAccessibility, accessGroup: String? = KeychainFixture.sharedGroup,
        groups: [String] = groups
    ) -> KeychainFixture {
        KeychainFixture(
            accessibility: accessibility, keychain: device.process(accessGroups: groups), accessGroup: accessGroup)
    }

    @Test func withTheDefaultClassNothingMoves() async throws {
        let first = SimulatedDeviceKeychain()
        try await Self.fixture(first, accessibility: .afterFirstUnlockThisDeviceOnly).store.save(KeychainFixture.record())
        let second = Self.fixture(first.restoredFromBackup(), accessibility: .afterFirstUnlockThisDeviceOnly)
        #expect(try await second.store.load() == nil)
        #expect(second.keychain.allItems.isEmpty)
    }

    @Test func aMovedRecordIsSignedOutOnTheNewDeviceAndLeftInPlace() async throws {
        let first = SimulatedDeviceKeychain()
        let original = Self.fixture(first, accessibility: .afterFirstUnlock)
        var record = KeychainFixture.record()
        record.sequence = 4
        try await original.store.save(record)
        let second = Self.fixture(first.restoredFromBackup(), accessibility: .afterFirstUnlock)
        let copied = try #require(second.storedData)

        let loaded = try #require(try await second.store.load())
        #expect(!loaded.holdsSession, "the copy's refresh token would be presented")
        #expect(loaded.sequence == 4, "the next write must still be newer than the copy")
        #expect(second.storedData == copied, "nothing stored is lost")
        // The device it came from goes on with it.
        #expect(try await original.store.load() == record)
    }

    @Test func theNewDeviceSignsInOverTheCopyAndKeepsItsOwnSession() async throws {
        let first = SimulatedDeviceKeychain()
        try await Self.fixture(first, accessibility: .afterFirstUnlock).store.save(KeychainFixture.record())
        let second = Self.fixture(first.restoredFromBackup(), accessibility: .afterFirstUnlock)
        _ = try await second.store.load()
        let own = KeychainFixture.record(access: "access-2", refresh: "refresh-2")
        try await second.store.save(own)
        #expect(try await second.store.load() == own)
    }

    @Test func aRecordAnOlderBuildWroteWithoutAMarkerIsThisDevicesAndGetsOneOnTheNextSave() async throws {
        let device = SimulatedDeviceKeychain()
        let f = Self.fixture(device, accessibility: .afterFirstUnlock)
        try f.plant(KeychainFixture.record())
        #expect(try await f.store.load() == KeychainFixture.record())
        try await f.store.save(KeychainFixture.record(access: "access-2"))
        let restored = Self.fixture(device.restoredFromBackup(), accessibility: .afterFirstUnlock)
        #expect(try await restored.store.load()?.holdsSession == false)
    }

    @Test func anUpdateThatAddsAnAccessGroupKeepsTheSession() async throws {
        let device = SimulatedDeviceKeychain()
        let version1 = Self.fixture(device, accessibility: .afterFirstUnlock, accessGroup: nil, groups: [KeychainFixture.appGroup])
        try await version1.store.save(KeychainFixture.record())
        // Version 2 shares the session with a widget: the record moves to the group, the marker stays behind.
        let version2 = Self.fixture(device, accessibility: .afterFirstUnlock)
        #expect(try await version2.store.load() == KeychainFixture.record())
        try await version2.store.save(KeychainFixture.record(access: "access-2"))
        // The widget, without the app's own group, now finds the marker beside the record.
        let widget = Self.fixture(
            device, accessibility: .afterFirstUnlock, groups: [KeychainFixture.sharedGroup, KeychainFixture.widgetGroup])
        #expect(try await widget.store.load()?.accessToken == "access-2")
    }

    @Test func aMarkerHiddenByTheLockedDeviceIsNeverReadAsAnotherDevice() async throws {
        let f = Self.fixture(SimulatedDeviceKeychain(), accessibility: .afterFirstUnlock)
        try await f.store.save(KeychainFixture.record())
        // The record reads; the marker's read answers "not found" as iOS 15 does for a
        // locked device, and protected data is not available.
        f.keychain.beforeNext(.copy) { process in process.failNext(.copy, with: .itemNotFound) }
        await f.protectedData.setAvailable(false)
        await #expect(throws: SessionStoreError.self) { try await f.store.load() }
        await f.protectedData.setAvailable(true)
        #expect(try await f.store.load() == KeychainFixture.record())
    }
}
