import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// The item's identity across an app's real life: extensions, updates that
/// add an access group, a kill in the middle of moving the record.
struct KeychainIdentityTests {
    typealias F = KeychainFixture

    /// Version 1 as it shipped: the bundle-derived service, no group, an app without Keychain Sharing.
    static func versionOne(on device: SimulatedDeviceKeychain, service: String = F.bundleDerivedService) throws {
        let app = device.process(accessGroups: [F.appGroup])
        app.plant(try F.encoded(F.record()), for: KeychainItem(service: service, account: "session"))
    }

    @Test func theDefaultIdentityDoesNotComeFromTheBundle() {
        let store = KeychainSessionStore(keychain: InMemoryKeychain(), protectedData: AlwaysAvailableProtectedData())
        #expect(store.service == "SessionKit")
        #expect(store.service == KeychainSessionStore.defaultService)
        #expect(store.accessGroup == nil)
        #expect(store.account == "session")
    }

    @Test func earlierServicesAreTheAppsBundleIdentifierInTheAppAndInItsExtensions() {
        #expect(
            KeychainSessionStore.bundleDerivedServices(bundleIdentifier: "com.example.app", isAppExtension: false)
                == ["com.example.app.sessionkit"])
        #expect(
            KeychainSessionStore.bundleDerivedServices(bundleIdentifier: "com.example.app.widget", isAppExtension: true)
                == ["com.example.app.sessionkit", "com.example.app.widget.sessionkit"])
        #expect(KeychainSessionStore.bundleDerivedServices(bundleIdentifier: nil, isAppExtension: false) == ["SessionKit.sessionkit"])
    }

    @Test func anExtensionBuiltWithTheGuidesSnippetSeesTheAppsSession() async throws {
        let device = SimulatedDeviceKeychain()
        let app = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]))
        try await app.store.save(F.record())
        // The widget: its own bundle id and default group; the guide's snippet names the shared group.
        let widget = KeychainSessionStore(
            keychain: device.process(accessGroups: [F.sharedGroup, F.widgetGroup]), accessGroup: F.sharedGroup,
            previousServices: ["com.example.app.widget.sessionkit"], protectedData: AlwaysAvailableProtectedData())
        #expect(try await widget.load() == F.record())
    }

    @Test func anUpdateThatAddsAnAccessGroupKeepsThePersonSignedIn() async throws {
        let device = SimulatedDeviceKeychain()
        try Self.versionOne(on: device)
        // Version 2 adds Keychain Sharing and passes the group, as the guide says.
        let v2 = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]))
        #expect(try await v2.store.load() == F.record())
        // Moved: in the shared group under the current identity, nothing left behind.
        #expect(v2.keychain.allItems.map { "\($0.accessGroup ?? "-")/\($0.service)" } == ["\(F.sharedGroup)/SessionKit"])
        // The widget sees it now.
        let widget = F(keychain: device.process(accessGroups: [F.sharedGroup, F.widgetGroup]))
        #expect(try await widget.store.load() == F.record())
    }

    @Test func anItemOfTheCurrentServiceWithoutAGroupIsMovedIntoTheNamedGroup() async throws {
        let device = SimulatedDeviceKeychain()
        try Self.versionOne(on: device, service: KeychainSessionStore.defaultService)
        let v2 = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]), previousServices: [])
        #expect(try await v2.store.load() == F.record())
        #expect(v2.keychain.allItems.map(\.accessGroup) == [F.sharedGroup])
    }

    @Test func withoutAGroupTheAppsItemInAnyOfItsGroupsIsFound() async throws {
        let device = SimulatedDeviceKeychain()
        try Self.versionOne(on: device, service: KeychainSessionStore.defaultService)
        // Keychain Sharing added, no group passed: the default group changed, the query still searches the old one.
        let v2 = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]), accessGroup: nil, previousServices: [])
        #expect(try await v2.store.load() == F.record())
        #expect(v2.keychain.count(.add) == 0)
    }

    @Test func aNewerRecordUnderAnEarlierIdentityIsNeitherMovedNorDeleted() async throws {
        let device = SimulatedDeviceKeychain()
        let old = device.process(accessGroups: [F.appGroup])
        let newer = Data(#"{"version": 7, "tokens": {}}"#.utf8)
        old.plant(newer, for: KeychainItem(service: F.bundleDerivedService, account: "session"))
        let v2 = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]))
        await #expect(throws: SessionStoreError.unsupportedVersion(7)) { try await v2.store.load() }
        #expect(v2.keychain.allItems.map(\.service) == [F.bundleDerivedService])
        #expect(v2.keychain.count(.add) == 0)
        #expect(v2.keychain.count(.delete) == 0)
    }

    @Test func aMoveRacingAnotherProcessKeepsTheirsAndTheOriginal() async throws {
        let device = SimulatedDeviceKeychain()
        try Self.versionOne(on: device)
        let v2 = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]))
        let theirs = try F.encoded(F.record(access: "widget-saved"))
        let current = v2.item
        v2.keychain.beforeNext(.add) { $0.plant(theirs, for: current) }  // the widget saved first
        #expect(try await v2.store.load() == F.record(access: "widget-saved"))
        #expect(v2.keychain.count(.delete) == 0)
    }

    /// How many keychain calls a first load after the update makes (the move, end to end).
    static func callsOfTheMove() async throws -> Int {
        let device = SimulatedDeviceKeychain()
        try versionOne(on: device)
        let v2 = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]))
        _ = try await v2.store.load()
        return InMemoryKeychain.Operation.allCases.reduce(0) { $0 + v2.keychain.count($1) }
    }

    @Test func aKillAtEveryStepOfTheMoveLosesNothing() async throws {
        let steps = try await Self.callsOfTheMove()
        #expect(steps == 8)  // read current, read it again (absent for sure), two searches, read original, add, read back, delete
        for survived in 0...steps {
            let device = SimulatedDeviceKeychain()
            try Self.versionOne(on: device)
            let dying = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]))
            dying.keychain.kill(afterCalls: survived)
            _ = try? await dying.store.load()  // killed: whatever it answered is never seen

            let relaunch = F(keychain: device.process(accessGroups: [F.sharedGroup, F.appGroup]))
            #expect(try await relaunch.store.load() == F.record(), "killed after \(survived) calls")
            // A sign-out leaves nothing that could come back, whichever step the kill hit.
            try await relaunch.store.clear()
            #expect(relaunch.keychain.allItems.isEmpty, "killed after \(survived) calls")
            #expect(try await relaunch.store.load() == nil, "killed after \(survived) calls")
        }
    }

    @Test func aGroupTheTargetLacksNamesTheGroupAndTheFix() async throws {
        let device = SimulatedDeviceKeychain()
        // The widget target never got Keychain Sharing: it holds only its own app ID.
        let widget = F(keychain: device.process(accessGroups: [F.widgetGroup]))
        let error = try #require(await #expect(throws: SessionStoreError.self) { try await widget.store.load() })
        #expect(error.isInaccessible)
        #expect(error.reason.contains(F.sharedGroup))
        #expect(error.reason.contains("Keychain Sharing"))
        #expect(error.reason.contains("-34018"))
    }
}
