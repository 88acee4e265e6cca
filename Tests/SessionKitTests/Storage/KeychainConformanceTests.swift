import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit
import SessionKitTesting
import Testing

/// Pins each documented keychain rule the fake follows (``SimulatedDeviceKeychain``
/// names the sources), so a later change to the fake cannot quietly drop one.
struct KeychainConformanceTests {
    static let shared = "TEAMID.com.example.shared"
    static let appID = "TEAMID.com.example.app"
    static let widgetID = "TEAMID.com.example.app.widget"
    static let bytes = Data("record".utf8)

    static func item(_ group: String? = nil, service: String = "S", account: String = "a",
                     _ accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly) -> KeychainItem {
        KeychainItem(service: service, account: account, accessGroup: group, accessibility: accessibility)
    }

    @Test func itemsAreNamedByGroupServiceAndAccount() {
        let app = SimulatedDeviceKeychain().process(accessGroups: [Self.shared, Self.appID])
        #expect(app.add(Self.item(Self.shared), data: Self.bytes) == .success)
        #expect(app.add(Self.item(Self.appID), data: Self.bytes) == .success)
        #expect(app.add(Self.item(Self.shared, service: "T"), data: Self.bytes) == .success)
        #expect(app.add(Self.item(Self.shared, account: "b"), data: Self.bytes) == .success)
        #expect(app.add(Self.item(Self.shared), data: Self.bytes) == .duplicateItem)
        #expect(app.allItems.count == 4)
    }

    @Test func anAddWithoutAGroupLandsInTheFirstGroupTheProcessHolds() {
        let app = SimulatedDeviceKeychain().process(accessGroups: [Self.shared, Self.appID])
        #expect(app.add(Self.item(), data: Self.bytes) == .success)
        #expect(app.allItems.map(\.accessGroup) == [Self.shared])
    }

    @Test func aQueryWithoutAGroupSearchesEveryGroupTheProcessHolds() {
        let app = SimulatedDeviceKeychain().process(accessGroups: [Self.shared, Self.appID])
        app.plant(Self.bytes, for: Self.item(Self.appID))
        #expect(app.copyData(Self.item()).data == Self.bytes)
        #expect(app.update(Self.item(), data: Data("new".utf8)) == .success)
        #expect(app.storedItem(Self.item(Self.appID))?.data == Data("new".utf8))
        #expect(app.findItems(Self.item()).items.map(\.accessGroup) == [Self.appID])
        #expect(app.delete(Self.item()) == .success)
        #expect(app.allItems.isEmpty)
    }

    @Test func aQueryWithoutAGroupUpdatesAndDeletesEveryMatch() {
        let app = SimulatedDeviceKeychain().process(accessGroups: [Self.shared, Self.appID])
        app.plant(Self.bytes, for: Self.item(Self.appID))
        app.plant(Self.bytes, for: Self.item(Self.shared))
        #expect(app.findItems(Self.item()).items.count == 2)
        #expect(app.update(Self.item(), data: Data("new".utf8)) == .success)
        #expect(app.allItems.allSatisfy { app.storedItem($0)?.data == Data("new".utf8) })
        #expect(app.delete(Self.item()) == .success)
        #expect(app.allItems.isEmpty)
    }

    @Test func aQueryNamingAGroupSearchesThatGroupOnly() {
        let app = SimulatedDeviceKeychain().process(accessGroups: [Self.shared, Self.appID])
        app.plant(Self.bytes, for: Self.item(Self.appID))
        #expect(app.copyData(Self.item(Self.shared)).status == .itemNotFound)
        #expect(app.update(Self.item(Self.shared), data: Self.bytes) == .itemNotFound)
        #expect(app.delete(Self.item(Self.shared)) == .itemNotFound)
        #expect(app.allItems.count == 1)
    }

    @Test func aGroupTheProcessLacksIsAMissingEntitlement() {
        let device = SimulatedDeviceKeychain()
        let app = device.process(accessGroups: [Self.shared, Self.appID])
        app.plant(Self.bytes, for: Self.item(Self.appID))
        let widget = device.process(accessGroups: [Self.shared, Self.widgetID])
        #expect(widget.copyData(Self.item(Self.appID)).status == .missingEntitlement)
        #expect(widget.add(Self.item(Self.appID), data: Self.bytes) == .missingEntitlement)
        #expect(widget.update(Self.item(Self.appID), data: Self.bytes) == .missingEntitlement)
        #expect(widget.delete(Self.item(Self.appID)) == .missingEntitlement)
        // Without a group it searches its own groups: the app's private item is not one of them.
        #expect(widget.copyData(Self.item()).status == .itemNotFound)
    }

    @Test func aProcessWithoutEntitlementsIsRefusedEveryCall() {
        let unsigned = SimulatedDeviceKeychain().process(accessGroups: [])
        #expect(unsigned.add(Self.item(), data: Self.bytes) == .missingEntitlement)
        #expect(unsigned.copyData(Self.item()).status == .missingEntitlement)
        #expect(unsigned.update(Self.item(), data: Self.bytes) == .missingEntitlement)
        #expect(unsigned.delete(Self.item()) == .missingEntitlement)
        #expect(unsigned.findItems(Self.item()).status == .missingEntitlement)
    }

    @Test(arguments: [true, false])
    func nothingIsReadableBeforeTheFirstUnlock(iOS15: Bool) {
        let device = SimulatedDeviceKeychain(answersNotFoundWhileLocked: iOS15)
        let app = device.process(accessGroups: [Self.appID])
        app.plant(Self.bytes, for: Self.item(nil, .afterFirstUnlock))
        device.restart()
        let expected: KeychainStatus = iOS15 ? .itemNotFound : .interactionNotAllowed
        #expect(app.copyData(Self.item()).status == expected)
        #expect(app.update(Self.item(), data: Self.bytes) == expected)
        #expect(app.add(Self.item(service: "other"), data: Self.bytes) == .interactionNotAllowed)
        device.unlock()
        #expect(app.copyData(Self.item()).data == Self.bytes)
    }

    @Test func afterTheFirstUnlockOnlyAfterFirstUnlockItemsAreReadableWhileLocked() {
        let device = SimulatedDeviceKeychain(answersNotFoundWhileLocked: false)
        let app = device.process(accessGroups: [Self.appID])
        app.plant(Self.bytes, for: Self.item(service: "afu", .afterFirstUnlockThisDeviceOnly))
        app.plant(Self.bytes, for: Self.item(service: "wu", .whenUnlockedThisDeviceOnly))
        app.plant(Self.bytes, for: Self.item(service: "pc", .whenPasscodeSetThisDeviceOnly))
        device.lockScreen()
        #expect(app.copyData(Self.item(service: "afu")).data == Self.bytes)
        #expect(app.copyData(Self.item(service: "wu")).status == .interactionNotAllowed)
        #expect(app.copyData(Self.item(service: "pc")).status == .interactionNotAllowed)
        #expect(app.update(Self.item(service: "wu"), data: Self.bytes) == .interactionNotAllowed)
        #expect(app.add(Self.item(service: "new", .whenUnlocked), data: Self.bytes) == .interactionNotAllowed)
    }

    @Test func iOS15AnswersNotFoundForAnItemThatIsThereWhileLocked() {
        let device = SimulatedDeviceKeychain()
        let app = device.process(accessGroups: [Self.appID])
        app.plant(Self.bytes, for: Self.item(nil, .whenUnlocked))
        device.lockScreen()
        #expect(app.copyData(Self.item()).status == .itemNotFound)
        #expect(app.storedItem(Self.item())?.data == Self.bytes)
    }

    @Test func thisDeviceOnlyItemsAreNotRestoredFromABackup() {
        let app = SimulatedDeviceKeychain().process(accessGroups: [Self.appID])
        app.plant(Self.bytes, for: Self.item(service: "kept", .afterFirstUnlock))
        app.plant(Self.bytes, for: Self.item(service: "lost", .afterFirstUnlockThisDeviceOnly))
        let restored = app.device.restoredFromBackup().process(accessGroups: [Self.appID])
        #expect(restored.allItems.map(\.service) == ["kept"])
    }

    @Test func itemsSurviveTheAppsDeletion() {
        let device = SimulatedDeviceKeychain()
        let app = device.process(accessGroups: [Self.appID])
        #expect(app.add(Self.item(), data: Self.bytes) == .success)
        device.uninstall(app)
        let reinstalled = device.process(accessGroups: [Self.appID])
        #expect(reinstalled.copyData(Self.item()).data == Self.bytes)
    }

    @Test func processesShareOneKeychainThroughAGroupOnly() {
        let device = SimulatedDeviceKeychain()
        let app = device.process(accessGroups: [Self.shared, Self.appID])
        let widget = device.process(accessGroups: [Self.shared, Self.widgetID])
        #expect(app.add(Self.item(Self.shared, service: "shared"), data: Self.bytes) == .success)
        #expect(app.add(Self.item(Self.appID, service: "private"), data: Self.bytes) == .success)
        #expect(widget.copyData(Self.item(service: "shared")).data == Self.bytes)
        #expect(widget.copyData(Self.item(service: "private")).status == .itemNotFound)
        // Each process's scripting is its own.
        widget.failNext(.copy, with: .authFailed)
        #expect(app.copyData(Self.item(service: "shared")).data == Self.bytes)
        #expect(widget.copyData(Self.item(service: "shared")).status == .authFailed)
    }

    @Test func aKilledProcessChangesNothing() {
        let app = SimulatedDeviceKeychain().process(accessGroups: [Self.appID])
        app.kill(afterCalls: 1)
        #expect(app.add(Self.item(service: "first"), data: Self.bytes) == .success)
        #expect(app.add(Self.item(service: "second"), data: Self.bytes) == .notAvailable)
        #expect(app.allItems.map(\.service) == ["first"])
    }
}
