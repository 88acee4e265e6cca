import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Security)
import Security
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// Every `OSStatus` the keychain can answer, through save, load and clear.
struct KeychainStatusPathTests {
    /// The failures that are neither "absent" nor "locked": each is reported as itself, never as "no session".
    static let hardFailures: [KeychainStatus] = [
        .authFailed, .decode, .missingEntitlement, .notAvailable, .param, .allocate, .unimplemented,
        .duplicateItem, KeychainStatus(rawValue: -67_671),
    ]

    /// One failing call on the way through `save`.
    struct SaveFailure: Sendable, CustomTestStringConvertible {
        /// Which call fails: the first update, the add, the update after a concurrent add, the read-back.
        enum Step: Sendable { case update, add, updateAfterDuplicate, readBack }
        let step: Step
        let status: KeychainStatus

        var testDescription: String { "\(step) answers \(status)" }

        static var all: [SaveFailure] {
            [Step.update, .add, .updateAfterDuplicate, .readBack].flatMap { step in
                ([.interactionNotAllowed] + hardFailures).filter { status in
                    // An add answering duplicateItem is the race, covered as its own step.
                    !(step == .add && status == .duplicateItem)
                }.map { SaveFailure(step: step, status: $0) }
            }
        }
    }

    @Test(arguments: SaveFailure.all)
    func saveReportsEveryStatus(_ failure: SaveFailure) async throws {
        let f = KeychainFixture()
        let item = f.item
        switch failure.step {
        case .update:
            try f.plant(KeychainFixture.record())
            f.keychain.failNext(.update, with: failure.status)
        case .add:
            f.keychain.failNext(.add, with: failure.status)
        case .updateAfterDuplicate:
            let theirs = try KeychainFixture.encoded(KeychainFixture.record(access: "theirs"))
            f.keychain.beforeNext(.add) { $0.plant(theirs, for: item) }
            f.keychain.failNext(.update, with: .itemNotFound)
            f.keychain.failNext(.update, with: failure.status)
        case .readBack:
            // The first read is the format check before writing (nothing there yet); the second is the read-back.
            f.keychain.failNext(.copy, with: .itemNotFound)
            f.keychain.failNext(.copy, with: failure.status)
        }
        let expected = Self.expected(failure.status, otherwise: .writeFailed(""))
        let error = await #expect(throws: expected) { try await f.store.save(KeychainFixture.record()) }
        #expect(error?.reason.contains(failure.status.description) == true)
    }

    @Test(arguments: hardFailures)
    func loadReportsEveryOtherStatusAsUnreadable(_ status: KeychainStatus) async throws {
        let f = KeychainFixture()
        try f.plant(KeychainFixture.record())
        f.keychain.failNext(.copy, with: status)
        let error = await #expect(throws: Self.expected(status, otherwise: .readFailed(""))) { try await f.store.load() }
        #expect(error?.reason.contains(status.description) == true)
        // Not "no session", not corrupt: the item is left as it was.
        #expect(f.keychain.accounts == ["session"])
        #expect(f.keychain.count(.delete) == 0)
    }

    @Test func loadReportsSuccessWithoutDataAsUnreadable() async throws {
        let f = KeychainFixture()
        f.keychain.failNext(.copy, with: .success)
        await #expect(throws: SessionStoreError.readFailed("")) { try await f.store.load() }
    }

    @Test(arguments: [KeychainStatus.interactionNotAllowed] + hardFailures)
    func clearReportsEveryStatus(_ status: KeychainStatus) async throws {
        let f = KeychainFixture()
        try f.plant(KeychainFixture.record())
        f.keychain.failNext(.delete, with: status)
        await #expect(throws: Self.expected(status, otherwise: .deleteFailed(""))) { try await f.store.clear() }
        #expect(f.storedData != nil)
    }

    /// Locked is transient; a missing entitlement and a damaged item are the app's to fix; the rest fail as `otherwise`.
    static func expected(_ status: KeychainStatus, otherwise: SessionStoreError) -> SessionStoreError {
        switch status {
        case .interactionNotAllowed: .deviceLocked("")
        case .missingEntitlement, .decode: .inaccessible("")
        default: otherwise
        }
    }

    @Test func statusesHaveTheSecurityFrameworkValues() {
        let expected: [(KeychainStatus, Int32, String)] = [
            (.success, 0, "errSecSuccess"), (.itemNotFound, -25300, "errSecItemNotFound"),
            (.duplicateItem, -25299, "errSecDuplicateItem"),
            (.interactionNotAllowed, -25308, "errSecInteractionNotAllowed"), (.authFailed, -25293, "errSecAuthFailed"),
            (.decode, -26275, "errSecDecode"), (.missingEntitlement, -34018, "errSecMissingEntitlement"),
            (.notAvailable, -25291, "errSecNotAvailable"), (.param, -50, "errSecParam"),
            (.allocate, -108, "errSecAllocate"), (.unimplemented, -4, "errSecUnimplemented"),
        ]
        for (status, value, name) in expected {
            #expect(status.rawValue == value)
            #expect(status.description == "\(name) (\(value))")
        }
        #expect(KeychainStatus(rawValue: -67_671).description == "OSStatus -67671")
        #if canImport(Security)
        let framework: [(KeychainStatus, OSStatus)] = [
            (.success, errSecSuccess), (.itemNotFound, errSecItemNotFound), (.duplicateItem, errSecDuplicateItem),
            (.interactionNotAllowed, errSecInteractionNotAllowed), (.authFailed, errSecAuthFailed),
            (.decode, errSecDecode), (.missingEntitlement, errSecMissingEntitlement),
            (.notAvailable, errSecNotAvailable), (.param, errSecParam), (.allocate, errSecAllocate),
            (.unimplemented, errSecUnimplemented),
        ]
        for (status, value) in framework { #expect(status.rawValue == value) }
        #endif
    }
}
