import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// The keychain fake, closer still (issue 42, item 4): a class change needs the
/// new class's key, the Mac's file-based keychain, and the two answers to a
/// group the app lacks; each rule once on the fake, then through the store.
struct KeychainFidelityTests {
    static let appGroup = KeychainFixture.appGroup
    static let sharedGroup = KeychainFixture.sharedGroup
    static let bytes = Data("record".utf8)

    static func item(_ group: String? = nil, _ accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
                     dataProtection: Bool = true) -> KeychainItem {
        KeychainItem(service: "S", account: "a", accessGroup: group, accessibility: accessibility,
                     usesDataProtectionKeychain: dataProtection)
    }

    // MARK: - A class change needs the new class's key

    @Test(arguments: [true, false])
    func movingAnItemToAClassLockedNowIsRefused(iOS15: Bool) {
        let device = SimulatedDeviceKeychain(answersNotFoundWhileLocked: iOS15)
        let app = device.process(accessGroups: [Self.appGroup])
        app.plant(Self.bytes, for: Self.item(nil, .afterFirstUnlockThisDeviceOnly))
        device.lockScreen()
        // Readable under its own class, but its new class's key is locked away.
        #expect(app.update(Self.item(nil, .whenUnlockedThisDeviceOnly), data: Data("new".utf8)) == .interactionNotAllowed)
        #expect(app.storedItem(Self.item())?.data == Self.bytes)
        #expect(app.storedItem(Self.item())?.accessibility == .afterFirstUnlockThisDeviceOnly)
        // Under a class readable now, the same update goes through.
        #expect(app.update(Self.item(nil, .afterFirstUnlock), data: Data("new".utf8)) == .success)
        device.unlock()
        #expect(app.update(Self.item(nil, .whenUnlockedThisDeviceOnly), data: Self.bytes) == .success)
        #expect(app.storedItem(Self.item())?.accessibility == .whenUnlockedThisDeviceOnly)
    }

    @Test func aStoreMovingItsRecordToAStricterClassWhileLockedReportsLockedAndKeepsTheRecord() async throws {
        let device = SimulatedDeviceKeychain(answersNotFoundWhileLocked: false)
        let app = device.process(accessGroups: [Self.sharedGroup, Self.appGroup])
        let before = KeychainFixture(keychain: app)
        try await before.store.save(KeychainFixture.record())
        device.lockScreen()
        // An update of the app asks for a stricter class; the screen is locked when the next refresh saves.
        let after = KeychainFixture(accessibility: .whenUnlockedThisDeviceOnly, keychain: app)
        await #expect(throws: SessionStoreError.deviceLocked("")) {
            try await after.store.save(KeychainFixture.record(access: "access-token-2", refresh: "refresh-token-2"))
        }
        // The record it had stays, under its old class, readable as before.
        #expect(try await before.store.load()?.refreshToken == "refresh-token-1")
        device.unlock()
        try await after.store.save(KeychainFixture.record(access: "access-token-2", refresh: "refresh-token-2"))
        #expect(app.storedItem(after.item)?.accessibility == .whenUnlockedThisDeviceOnly)
    }

    // MARK: - The Mac's file-based keychain

    @Test func theFileBasedKeychainIgnoresGroupsAccessibilityAndEntitlements() {
        let mac = SimulatedDeviceKeychain(answersNotFoundWhileLocked: false, answersForeignGroup: .missingEntitlement, hasFileBasedKeychain: true)
        let app = mac.process(accessGroups: [Self.appGroup])
        let unsigned = mac.process(accessGroups: [])
        let file = Self.item("TEAMID.not.held", .whenUnlockedThisDeviceOnly, dataProtection: false)
        #expect(app.add(file, data: Self.bytes) == .success)
        // No groups: a query naming any group, or none, finds the one item; a process without entitlements too.
        #expect(app.copyData(Self.item(Self.appGroup, dataProtection: false)).data == Self.bytes)
        #expect(unsigned.copyData(Self.item(dataProtection: false)).data == Self.bytes)
        #expect(app.findItems(Self.item(dataProtection: false)).items.map(\.accessGroup) == [nil])
        // Accessibility does not apply: readable with the screen locked.
        mac.lockScreen()
        #expect(app.copyData(file).data == Self.bytes)
        #expect(app.update(file, data: Data("new".utf8)) == .success)
        // The data-protection keychain is another keychain: the item is not there.
        #expect(app.copyData(Self.item()).status == .itemNotFound)
        #expect(app.allItems.isEmpty)
        #expect(app.delete(Self.item(dataProtection: false)) == .success)
        #expect(app.copyData(file).status == .itemNotFound)
    }

    @Test func offAMacTheDataProtectionOptionIsIgnored() {
        let phone = SimulatedDeviceKeychain()
        let app = phone.process(accessGroups: [Self.appGroup])
        #expect(app.add(Self.item(dataProtection: false), data: Self.bytes) == .success)
        #expect(app.copyData(Self.item()).data == Self.bytes)
        #expect(app.copyData(Self.item("TEAMID.not.held", dataProtection: false)).status == .missingEntitlement)
    }

    @Test func aStoreOnTheFileBasedKeychainKeepsItsSessionAcrossGroupsAndLocks() async throws {
        let mac = SimulatedDeviceKeychain(answersNotFoundWhileLocked: false, answersForeignGroup: .missingEntitlement, hasFileBasedKeychain: true)
        let app = mac.process(accessGroups: [Self.appGroup])
        func store(_ group: String?) -> KeychainSessionStore {
            KeychainSessionStore(
                keychain: app, accessGroup: group, accessibility: .whenUnlockedThisDeviceOnly,
                usesDataProtectionKeychain: false, previousServices: [KeychainFixture.bundleDerivedService],
                protectedData: ScriptedProtectedData(isAvailable: true), protectedDataWait: KeychainFixture.wait)
        }
        try await store(Self.sharedGroup).save(KeychainFixture.record())
        mac.lockScreen()
        // The group named is ignored (the same item), and the search for earlier items does not delete it.
        #expect(try await store(nil).load()?.refreshToken == "refresh-token-1")
        #expect(try await store("TEAMID.not.held").load()?.refreshToken == "refresh-token-1")
        try await store(nil).save(KeychainFixture.record(access: "access-token-2", refresh: "refresh-token-2"))
        #expect(try await store(Self.sharedGroup).load()?.refreshToken == "refresh-token-2")
        #expect(app.allItems.isEmpty)
        try await store(Self.sharedGroup).clear()
        #expect(try await store(nil).load() == nil)
    }

    // MARK: - A group the app lacks: -34018 (implementation) or "not found" (Apple's page)

    @Test(arguments: [KeychainStatus.missingEntitlement, .itemNotFound])
    func aSearchNamingAGroupTheProcessLacksAnswersAsTheDeviceSays(answer: KeychainStatus) {
        let device = SimulatedDeviceKeychain(answersForeignGroup: answer)
        let app = device.process(accessGroups: [Self.sharedGroup, Self.appGroup])
        app.plant(Self.bytes, for: Self.item(Self.appGroup))
        let widget = device.process(accessGroups: [Self.sharedGroup])
        #expect(widget.copyData(Self.item(Self.appGroup)).status == answer)
        #expect(widget.findItems(Self.item(Self.appGroup)).status == answer)
        #expect(widget.update(Self.item(Self.appGroup), data: Data("x".utf8)) == answer)
        #expect(widget.delete(Self.item(Self.appGroup)) == answer)
        // An add into it is refused either way, and nothing of the app's was touched.
        #expect(widget.add(Self.item(Self.appGroup), data: Data("x".utf8)) == .missingEntitlement)
        #expect(app.storedItem(Self.item(Self.appGroup))?.data == Self.bytes)
    }

    @Test(arguments: [KeychainStatus.missingEntitlement, .itemNotFound])
    func aStoreNamingAGroupTheAppLacksNeverSavesNorDeletesAndSaysSo(answer: KeychainStatus) async throws {
        let device = SimulatedDeviceKeychain(answersForeignGroup: answer)
        // Another app of the team keeps its session in the group this app's entitlements forgot.
        let other = device.process(accessGroups: [Self.sharedGroup])
        let theirs = KeychainFixture(keychain: other)
        try await theirs.store.save(KeychainFixture.record())
        let app = KeychainFixture(keychain: device.process(accessGroups: [Self.appGroup]))
        if answer == .missingEntitlement {
            // The implementation names the cause: the app's to fix, never "signed out".
            await #expect(throws: SessionStoreError.inaccessible("")) { try await app.store.load() }
        } else {
            // Apple's page: nothing found, so no session, and nothing deleted.
            #expect(try await app.store.load() == nil)
        }
        // Saving a sign-in fails with the cause in both worlds: the add is refused.
        await #expect(throws: SessionStoreError.inaccessible("")) {
            try await app.store.save(KeychainFixture.record(access: "mine", refresh: "mine"))
        }
        if answer == .missingEntitlement {
            await #expect(throws: SessionStoreError.inaccessible("")) { try await app.store.clear() }
        } else {
            try await app.store.clear()
        }
        #expect(try await theirs.store.load()?.refreshToken == "refresh-token-1")
    }
}
