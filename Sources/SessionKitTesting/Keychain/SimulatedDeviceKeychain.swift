import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// One device's data-protection keychain, shared by every process on it (an
/// app, its widget, its share extension), each seeing it through an
/// ``InMemoryKeychain`` with its own entitlements.
///
/// It follows Apple's documented rules, not ours; each rule names its source:
///
/// - **Identity.** A generic password is one item per access group, service
///   and account. "Keychain items … are always part of exactly one group"
///   ("Sharing access to keychain items among a collection of apps").
/// - **Groups.** A process belongs to the groups of its `keychain-access-groups`
///   entitlement, then its app ID, then its app groups, in that order; it can
///   reach an item only if one of those is the item's group. An add without
///   `kSecAttrAccessGroup` lands in the first of them (the `kSecAttrAccessGroup`
///   reference). A query, update or delete without a group searches every group
///   the process has; one naming a group searches that group only, and a group
///   the process lacks is `errSecMissingEntitlement` (-34018).
/// - **No entitlement at all** (a Mac app signed without a keychain-access-groups
///   or application-identifier entitlement using the data-protection keychain):
///   every call answers -34018 (TN3137 "On Mac keychain APIs and implementations";
///   `errSecMissingEntitlement`: "A required entitlement isn't present.").
/// - **Accessibility** (the `kSecAttrAccessible` reference): nothing is readable
///   before the first unlock after a restart; `AfterFirstUnlock` items are readable
///   from then on, locked or not; `WhenUnlocked` and `WhenPasscodeSet` items only
///   while unlocked. A call on an item out of reach answers
///   `errSecInteractionNotAllowed` (-25308).
/// - **iOS 15 and later** can answer `errSecItemNotFound` instead, for an item
///   that exists while the device is locked or before the first unlock
///   (firebase-ios-sdk PR 16505, "Fix FirebaseAuth random logouts on iOS 15+
///   during prewarming"). On by default: the least convenient world.
/// - **`ThisDeviceOnly`** items are not restored from a backup onto another
///   device (``restoredFromBackup()``); the others are.
/// - **Deleting an app** leaves its keychain items: a reinstall finds them
///   (``uninstall(_:)`` removes nothing here; the app's UserDefaults are the app's to drop).
/// - **A group the process lacks**, named in a search: Apple's implementation
///   answers `errSecMissingEntitlement` (-34018); the `kSecAttrAccessGroup` page
///   says only that the app must belong to the item's group, so a search
///   there finds nothing (`errSecItemNotFound`). `answersForeignGroup` picks
///   which; an add into such a group is -34018 either way.
/// - **Changing an item's class** (`SecItemUpdate` with another
///   `kSecAttrAccessible`) writes it under the new class's key: refused with
///   the locked answer while that class is locked, as an add of it is (Apple
///   Platform Security, "Keychain data protection classes").
/// - **The Mac's file-based keychain** (``hasFileBasedKeychain``; a call
///   without `kSecUseDataProtectionKeychain`) ignores access groups and
///   accessibility, needs no entitlement, and is readable while the user is
///   logged in (TN3137 "On Mac keychain APIs and implementations";
///   `kSecUseDataProtectionKeychain`). Off a Mac the key is ignored.
/// - Which item a query without a group returns when several groups hold a
///   match is not documented; here it is the first in the process's group order.
public final class SimulatedDeviceKeychain: @unchecked Sendable {
    /// Where the device is in its lock cycle.
    public enum LockState: Sendable, Hashable {
        /// Restarted and not unlocked yet: no item is readable.
        case beforeFirstUnlock
        /// Unlocked once since the restart, locked now: `AfterFirstUnlock` items are readable.
        case locked
        /// Unlocked.
        case unlocked
    }

    struct Key: Hashable {
        let accessGroup: String
        let service: String
        let account: String
    }

    /// What the device holds for one item.
    public struct StoredItem: Sendable, Hashable {
        public var data: Data
        public var accessibility: KeychainAccessibility
    }

    // Everything below is read and written under `lock`.
    let lock = NSLock()
    var items: [Key: StoredItem] = [:]
    /// The Mac's file-based login keychain, under ``fileBasedGroup``.
    var fileBasedItems: [Key: StoredItem] = [:]
    /// The one "group" of the file-based keychain, which has none.
    static let fileBasedGroup = ""
    /// What a search naming a group the process lacks answers.
    public let foreignGroupAnswer: KeychainStatus
    /// A Mac: calls without `kSecUseDataProtectionKeychain` reach the file-based keychain.
    public let hasFileBasedKeychain: Bool
    private var state: LockState
    private var lockedAnswerOverride: KeychainStatus?
    private var quirk: Bool

    /// - Parameters:
    ///   - state: the lock state at first (unlocked).
    ///   - answersNotFoundWhileLocked: the iOS 15+ behaviour of answering
    ///     `errSecItemNotFound` for an item out of reach (on by default).
    ///   - answersForeignGroup: what a search naming a group the process lacks answers:
    ///     `.missingEntitlement` (Apple's implementation, the default) or `.itemNotFound` (Apple's page).
    ///   - hasFileBasedKeychain: a Mac, whose file-based keychain calls without
    ///     `kSecUseDataProtectionKeychain` reach (off: iOS and the others, which ignore the key).
    public init(
        state: LockState = .unlocked, answersNotFoundWhileLocked: Bool = true,
        answersForeignGroup: KeychainStatus, hasFileBasedKeychain: Bool = false
    ) {
        self.state = state
        self.quirk = answersNotFoundWhileLocked
        self.foreignGroupAnswer = answersForeignGroup
        self.hasFileBasedKeychain = hasFileBasedKeychain
    }

    /// A device whose foreign-group searches answer as Apple's implementation does
    /// (`.missingEntitlement`), with no file-based keychain: 0.4.0's initializer, kept
    /// so that tests written against it still build (scripts/check-api.sh).
    public convenience init(state: LockState = .unlocked, answersNotFoundWhileLocked: Bool = true) {
        self.init(state: state, answersNotFoundWhileLocked: answersNotFoundWhileLocked, answersForeignGroup: .missingEntitlement)
    }

    /// A process on this device holding `accessGroups` (its keychain-access-groups,
    /// then its app ID, then its app groups); none for a process without the entitlement.
    public func process(accessGroups: [String]) -> InMemoryKeychain {
        InMemoryKeychain(device: self, accessGroups: accessGroups)
    }

    // MARK: - The device's life

    /// The lock state now.
    public var lockState: LockState { lock.withLock { state } }

    /// Restarts the device: nothing is readable until ``unlock()``.
    ///
    /// - Parameter status: what calls answer meanwhile; `nil` for the modelled
    ///   answer (`errSecItemNotFound` with the iOS 15 quirk, else `errSecInteractionNotAllowed`).
    public func restart(answering status: KeychainStatus? = nil) {
        lock.withLock {
            state = .beforeFirstUnlock
            lockedAnswerOverride = status
        }
    }

    /// The person locks the device (after having unlocked it once).
    public func lockScreen() {
        lock.withLock {
            if state == .unlocked { state = .locked }
        }
    }

    /// The person unlocks the device.
    public func unlock() {
        lock.withLock {
            state = .unlocked
            lockedAnswerOverride = nil
        }
    }

    /// Deletes an app. Its keychain items stay: a reinstall with the same
    /// access groups finds them (unlike its container and UserDefaults).
    public func uninstall(_ process: InMemoryKeychain) {
        _ = process
    }

    /// A new device restored from an encrypted backup of this one: every item
    /// but the `ThisDeviceOnly` ones, unlocked.
    public func restoredFromBackup() -> SimulatedDeviceKeychain {
        let device = SimulatedDeviceKeychain(
            answersNotFoundWhileLocked: lock.withLock { quirk }, answersForeignGroup: foreignGroupAnswer,
            hasFileBasedKeychain: hasFileBasedKeychain)
        let kept = lock.withLock { items.filter { !$0.value.accessibility.isThisDeviceOnly } }
        device.lock.withLock { device.items = kept }
        return device
    }

    // MARK: - Rules

    /// What a call on an item of `accessibility` answers now, or `nil` when it may proceed.
    func outOfReach(_ accessibility: KeychainAccessibility?) -> KeychainStatus? {
        // Called under `lock`.
        let answer = lockedAnswerOverride ?? (quirk ? .itemNotFound : .interactionNotAllowed)
        switch state {
        case .unlocked:
            return nil
        case .beforeFirstUnlock:
            return answer
        case .locked:
            guard let accessibility else { return nil }
            return accessibility.isReadableWhileLocked ? nil : answer
        }
    }

    /// True before the first unlock: the keychain cannot even be searched.
    var isBeforeFirstUnlock: Bool { state == .beforeFirstUnlock }
}
