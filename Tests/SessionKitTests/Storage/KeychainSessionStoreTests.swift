import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// ``KeychainSessionStore`` on an in-memory keychain that answers as `SecItem*` does.
struct KeychainSessionStoreTests {
    // MARK: - Save

    @Test func firstSaveUpdatesThenAdds() async throws {
        let f = KeychainFixture()
        let record = KeychainFixture.record()
        try await f.store.save(record)
        #expect(f.keychain.count(.update) == 1)
        #expect(f.keychain.count(.add) == 1)
        #expect(f.keychain.count(.copy) == 2)  // the format check before writing, and the read-back
        #expect(f.storedData == (try KeychainFixture.encoded(record)))
        #expect(try await f.store.load() == record)
    }

    @Test func laterSavesUpdateInPlace() async throws {
        let f = KeychainFixture()
        try f.plant(KeychainFixture.record())
        let newer = KeychainFixture.record(access: "access-token-2", refresh: "refresh-token-2")
        try await f.store.save(newer)
        #expect(f.keychain.count(.update) == 1)
        #expect(f.keychain.count(.add) == 0)
        #expect(try await f.store.load() == newer)
    }

    @Test func anItemAddedByAnotherProcessMeanwhileIsUpdatedOver() async throws {
        let f = KeychainFixture()
        let item = f.item
        let theirs = try KeychainFixture.encoded(KeychainFixture.record(access: "extension-access"))
        // The update finds nothing; an extension adds the item before our add.
        f.keychain.beforeNext(.add) { $0.plant(theirs, for: item) }
        let ours = KeychainFixture.record(access: "app-access")
        try await f.store.save(ours)
        #expect(f.keychain.count(.add) == 1)
        #expect(f.keychain.count(.update) == 2)
        #expect(try await f.store.load() == ours)
    }

    @Test func aDifferentItemOnReadBackFailsVerification() async throws {
        let f = KeychainFixture()
        let item = f.item
        let other = try KeychainFixture.encoded(KeychainFixture.record(access: "someone-else"))
        f.keychain.beforeNext(.copy) { _ in }  // the format check before writing
        f.keychain.beforeNext(.copy) { $0.plant(other, for: item) }
        await #expect(throws: SessionStoreError.verificationFailed) {
            try await f.store.save(KeychainFixture.record())
        }
    }

    @Test func aMissingItemOnReadBackFailsVerification() async throws {
        let f = KeychainFixture()
        let item = f.item
        f.keychain.beforeNext(.copy) { _ in }  // the format check before writing
        f.keychain.beforeNext(.copy) { _ = $0.delete(item) }  // another process signed out in between
        await #expect(throws: SessionStoreError.verificationFailed) {
            try await f.store.save(KeychainFixture.record())
        }
    }

    @Test func saveBeforeFirstUnlockAddsNothing() async throws {
        let f = KeychainFixture(protectedDataAvailable: false)
        try f.plant(KeychainFixture.record())
        // The item is there but hidden: adding now could not be trusted to be the only one.
        f.keychain.lockBeforeFirstUnlock(answering: .itemNotFound)
        await #expect(throws: SessionStoreError.deviceLocked("")) {
            try await f.store.save(KeychainFixture.record(access: "access-token-2"))
        }
        #expect(f.keychain.count(.add) == 0)
        f.keychain.unlock()
        #expect(try await f.store.load() == KeychainFixture.record())
    }

    // MARK: - Load

    @Test func nothingStoredIsNilWhenProtectedDataIsAvailable() async throws {
        let f = KeychainFixture()
        #expect(try await f.store.load() == nil)
        #expect(await f.protectedData.waits.isEmpty)
    }

    @Test func interactionNotAllowedOnLoadIsTransient() async throws {
        let f = KeychainFixture(protectedDataAvailable: false)
        try f.plant(KeychainFixture.record())
        f.keychain.lockBeforeFirstUnlock(answering: .interactionNotAllowed)
        let error = await #expect(throws: SessionStoreError.self) { try await f.store.load() }
        #expect(error?.isDeviceLocked == true)
        #expect(error?.isCorrupt == false)
        #expect(error?.movedTo == nil)
        // Waited once, with the configured bound, and left the item alone.
        #expect(await f.protectedData.waits == [KeychainFixture.wait])
        #expect(f.keychain.accounts == ["session"])
        #expect(f.keychain.count(.add) == 0)
        #expect(f.keychain.count(.delete) == 0)
    }

    @Test func itemNotFoundBeforeFirstUnlockIsNotSignedOut() async throws {
        let f = KeychainFixture(protectedDataAvailable: false)
        try f.plant(KeychainFixture.record())
        // A prewarmed launch before first unlock: the keychain says the item is not there.
        f.keychain.lockBeforeFirstUnlock(answering: .itemNotFound)
        await #expect(throws: SessionStoreError.deviceLocked("")) { try await f.store.load() }
        #expect(f.storedData != nil)
    }

    @Test func loadWaitsForTheFirstUnlockAndReadsAgain() async throws {
        let f = KeychainFixture(protectedDataAvailable: false)
        let record = KeychainFixture.record()
        try f.plant(record)
        f.keychain.lockBeforeFirstUnlock(answering: .itemNotFound)
        let keychain = f.keychain
        await f.protectedData.unlockWhenWaitedOn { keychain.unlock() }
        #expect(try await f.store.load() == record)
        #expect(f.keychain.count(.copy) == 2)
    }

    @Test func interactionNotAllowedWhileUnlockedIsStillTransient() async throws {
        let f = KeychainFixture()
        try f.plant(KeychainFixture.record())
        f.keychain.failNext(.copy, with: .interactionNotAllowed, times: 2)
        await #expect(throws: SessionStoreError.deviceLocked("")) { try await f.store.load() }
        #expect(f.keychain.count(.copy) == 2)  // one more read after the (immediate) wait, no more
    }

    @Test func aNewerFormatIsLeftInPlace() async throws {
        let f = KeychainFixture()
        var newer = KeychainFixture.record()
        newer.version = 99
        try f.plant(newer)
        await #expect(throws: SessionStoreError.unsupportedVersion(99)) { try await f.store.load() }
        #expect(f.keychain.accounts == ["session"])
    }

    @Test func aNewerFormatThatDoesNotDecodeIsLeftInPlaceNotMovedAside() async throws {
        let f = KeychainFixture()
        // A newer SDK's record whose fields this one cannot decode.
        let newer = Data(#"{"version": 2, "tokens": {"a": "b"}}"#.utf8)
        f.keychain.plant(newer, for: f.item)
        let error = await #expect(throws: SessionStoreError.unsupportedVersion(2)) { try await f.store.load() }
        #expect(error?.isUnsupportedVersion == true)
        #expect(error?.movedTo == nil)
        #expect(f.storedData == newer)
        #expect(f.keychain.accounts == ["session"])
    }

    @Test func anOlderSDKNeverOverwritesOrDeletesANewerRecord() async throws {
        let f = KeychainFixture()
        let newer = Data(#"{"version": 2, "tokens": {"a": "b"}}"#.utf8)
        f.keychain.plant(newer, for: f.item)
        await #expect(throws: SessionStoreError.unsupportedVersion(2)) { try await f.store.save(KeychainFixture.record()) }
        await #expect(throws: SessionStoreError.unsupportedVersion(2)) { try await f.store.clear() }
        #expect(f.storedData == newer)
        #expect(f.keychain.count(.update) == 0)
        #expect(f.keychain.count(.delete) == 0)
    }

    // MARK: - Corrupt items

    @Test func aCorruptItemIsMovedAsideAndNamed() async throws {
        let f = KeychainFixture()
        let garbage = Data("{\"access_token\": 42".utf8)
        f.keychain.plant(garbage, for: f.item)
        let error = try #require(await #expect(throws: SessionStoreError.self) { try await f.store.load() })
        #expect(error.isCorrupt)
        let aside = try #require(error.movedTo?.keychainItem)
        #expect(aside.account.hasPrefix("session.corrupt-"))
        #expect(aside.service == f.item.service)
        #expect(aside.accessGroup == f.item.accessGroup)
        #expect(error.reason.contains(aside.account))
        // The copy holds the bytes; the original is gone, so the next load starts clean.
        #expect(f.keychain.storedItem(aside)?.data == garbage)
        #expect(f.storedData == nil)
        #expect(f.keychain.accounts == [aside.account])
        #expect(try await f.store.load() == nil)
    }

    @Test func anItemWithAnEmptyTokenIsMovedAside() async throws {
        let f = KeychainFixture()
        try f.plant(KeychainFixture.record(refresh: ""))
        let error = await #expect(throws: SessionStoreError.self) { try await f.store.load() }
        #expect(error?.isCorrupt == true)
        #expect(f.storedData == nil)
        #expect(f.keychain.accounts.count == 1)
    }

    @Test func aCorruptItemThatCannotBeCopiedStaysWhereItIs() async throws {
        let f = KeychainFixture()
        f.keychain.plant(Data("garbage".utf8), for: f.item)
        f.keychain.failNext(.add, with: .authFailed)
        let error = await #expect(throws: SessionStoreError.self) { try await f.store.load() }
        #expect(error == .readFailed(""))
        #expect(error?.isCorrupt == false)
        #expect(f.storedData == Data("garbage".utf8))
        #expect(f.keychain.accounts == ["session"])
    }

    @Test func aCorruptItemReplacedMeanwhileIsNotDeleted() async throws {
        let f = KeychainFixture()
        let item = f.item
        f.keychain.plant(Data("garbage".utf8), for: item)
        let good = KeychainFixture.record(access: "saved-meanwhile")
        let goodData = try KeychainFixture.encoded(good)
        // Another process saves a good session while this one copies the bad one aside.
        f.keychain.beforeNext(.add) { $0.plant(goodData, for: item) }
        await #expect(throws: SessionStoreError.readFailed("")) { try await f.store.load() }
        #expect(f.keychain.count(.delete) == 0)
        #expect(try await f.store.load() == good)
    }

    @Test func aCorruptItemThatCannotBeDeletedIsReportedWithItsCopy() async throws {
        let f = KeychainFixture()
        f.keychain.plant(Data("garbage".utf8), for: f.item)
        f.keychain.failNext(.delete, with: .authFailed)
        let error = try #require(await #expect(throws: SessionStoreError.self) { try await f.store.load() })
        #expect(error == .readFailed(""))
        let copy = try #require(f.keychain.accounts.first { $0.hasPrefix("session.corrupt-") })
        #expect(error.reason.contains(copy))
        #expect(f.storedData == Data("garbage".utf8))
    }

    // MARK: - Clear

    @Test func clearDeletesAndClearingNothingIsFine() async throws {
        let f = KeychainFixture()
        try f.plant(KeychainFixture.record())
        try await f.store.clear()
        #expect(f.storedData == nil)
        try await f.store.clear()
        #expect(f.keychain.count(.delete) == 2)
    }

    @Test func clearBeforeFirstUnlockIsNotReportedDone() async throws {
        let f = KeychainFixture(protectedDataAvailable: false)
        try f.plant(KeychainFixture.record())
        f.keychain.lockBeforeFirstUnlock(answering: .itemNotFound)
        await #expect(throws: SessionStoreError.deviceLocked("")) { try await f.store.clear() }
        #expect(f.storedData != nil)
    }

    // MARK: - Accessibility

    @Test func accessibilityDefaultsToAfterFirstUnlockThisDeviceOnly() async throws {
        let store = KeychainSessionStore(keychain: InMemoryKeychain(), protectedData: AlwaysAvailableProtectedData())
        #expect(store.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(store.accessibility.description == "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly")
        #expect(store.item.usesDataProtectionKeychain)
        #expect(KeychainItem(service: "s", account: "a").accessibility == .afterFirstUnlockThisDeviceOnly)
        let f = KeychainFixture()
        try await f.store.save(KeychainFixture.record())
        #expect(f.keychain.storedItem(f.item)?.accessibility == .afterFirstUnlockThisDeviceOnly)
    }

    @Test func savingMovesAnItemToTheConfiguredAccessibility() async throws {
        let f = KeychainFixture(accessibility: .whenUnlockedThisDeviceOnly)
        // Written by an earlier version with kSecAttrAccessibleAfterFirstUnlock.
        var old = f.item
        old.accessibility = .afterFirstUnlock
        f.keychain.plant(try KeychainFixture.encoded(KeychainFixture.record()), for: old)
        try await f.store.save(KeychainFixture.record(access: "access-token-2"))
        #expect(f.keychain.storedItem(f.item)?.accessibility == .whenUnlockedThisDeviceOnly)
        #expect(f.keychain.count(.add) == 0)
    }
}
