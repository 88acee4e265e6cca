import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a ``SessionStore`` could not read or write the session.
public struct SessionStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: String, Sendable, Hashable {
        case corrupt, unsupportedVersion, readFailed, writeFailed, verificationFailed, lockFailed, deleteFailed
        case deviceLocked, inaccessible, authenticationRequired
    }

    private let kind: Kind
    /// What happened and what to do.
    public let reason: String
    /// Where a corrupt record was moved (a file or a keychain item), so nothing stored is lost.
    public let movedTo: StoredRecordLocation?
    /// Why the biometric gate refused the read (``authenticationRequired(_:detail:)``); `nil` otherwise.
    public let lockReason: BiometricLockReason?

    private init(_ kind: Kind, _ reason: String, movedTo: StoredRecordLocation? = nil, lockReason: BiometricLockReason? = nil) {
        self.kind = kind
        self.reason = reason
        self.movedTo = movedTo
        self.lockReason = lockReason
    }

    /// The biometric gate is closed: the check was cancelled or failed, is due
    /// where no UI may be shown, or biometrics changed. The record is left stored;
    /// never "no session" (docs/PROTOCOL.md, "The biometric gate").
    public static func authenticationRequired(_ lockReason: BiometricLockReason, detail: String) -> Self {
        Self(.authenticationRequired, "The stored session is behind Face ID or Touch ID: \(detail)", lockReason: lockReason)
    }

    /// True when the biometric gate refused the read (``lockReason`` says why).
    public var isAwaitingAuthentication: Bool { kind == .authenticationRequired }

    /// The stored record could not be decoded; it was moved to `movedTo`.
    public static func corrupt(detail: String, movedTo: StoredRecordLocation?) -> Self {
        let aside = movedTo.map { " to \($0)" } ?? ""
        return Self(
            .corrupt, "The stored session is corrupt (\(detail)); it was moved aside\(aside). Sign in again.",
            movedTo: movedTo)
    }
    /// The record was written by a newer version of SessionKit; it was left untouched.
    public static func unsupportedVersion(_ version: Int) -> Self {
        Self(.unsupportedVersion, "The stored session has format version \(version), newer than this app understands. Update the app.")
    }
    /// The record could not be read (permissions, I/O, a keychain error).
    public static func readFailed(_ detail: String) -> Self {
        Self(.readFailed, "The stored session could not be read: \(detail)")
    }
    /// The record could not be written.
    public static func writeFailed(_ detail: String) -> Self {
        Self(.writeFailed, "The session could not be saved: \(detail)")
    }
    /// The record was written but did not read back identical.
    public static let verificationFailed = Self(.verificationFailed, "The saved session did not read back identical.")
    /// The cross-process refresh lock could not be taken.
    public static func lockFailed(_ detail: String) -> Self {
        Self(.lockFailed, "The session lock could not be taken: \(detail)")
    }
    /// The device is locked: protected data (the keychain) cannot be read or
    /// written until the person unlocks it, as before the first unlock after a
    /// restart. Transient, and never "no session": try again after unlock.
    public static func deviceLocked(_ detail: String) -> Self {
        Self(.deviceLocked, "The stored session cannot be reached while the device is locked: \(detail)")
    }
    /// The store refuses this app for a reason unlocking the device cannot
    /// fix: the keychain entitlement or access group is missing
    /// (`errSecMissingEntitlement`), or the item is damaged (`errSecDecode`).
    /// The record is left where it is; `detail` names the cause and the fix.
    public static func inaccessible(_ detail: String) -> Self {
        Self(.inaccessible, "This app cannot reach its stored session: \(detail)")
    }
    /// The record could not be deleted.
    public static func deleteFailed(_ detail: String) -> Self {
        Self(.deleteFailed, "The stored session could not be deleted: \(detail)")
    }

    /// True when the record was unreadable and moved aside.
    public var isCorrupt: Bool { kind == .corrupt }

    /// True when the record is out of reach until the device is unlocked (``deviceLocked(_:)``).
    public var isDeviceLocked: Bool { kind == .deviceLocked }

    /// True when only a change to the app (its entitlements, its access
    /// group) or a new sign-in helps (``inaccessible(_:)``), never waiting.
    public var isInaccessible: Bool { kind == .inaccessible }

    /// True when the record was written by a newer SDK and left untouched (``unsupportedVersion(_:)``).
    public var isUnsupportedVersion: Bool { kind == .unsupportedVersion }

    public var description: String { reason }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
