import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a ``SessionStore`` could not read or write the session.
public struct SessionStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: String, Sendable, Hashable {
        case corrupt, unsupportedVersion, readFailed, writeFailed, verificationFailed, lockFailed, deleteFailed
    }

    private let kind: Kind
    /// What happened and what to do.
    public let reason: String
    /// Where a corrupt record was moved, so nothing stored is lost.
    public let movedTo: URL?

    private init(_ kind: Kind, _ reason: String, movedTo: URL? = nil) {
        self.kind = kind
        self.reason = reason
        self.movedTo = movedTo
    }

    /// The stored record could not be decoded; it was moved to `movedTo`.
    public static func corrupt(detail: String, movedTo: URL?) -> Self {
        Self(.corrupt, "The stored session is corrupt (\(detail)); it was moved aside. Sign in again.", movedTo: movedTo)
    }
    /// The record was written by a newer version of SessionKit; it was left untouched.
    public static func unsupportedVersion(_ version: Int) -> Self {
        Self(.unsupportedVersion, "The stored session has format version \(version), newer than this app understands. Update the app.")
    }
    /// The record could not be read (permissions, I/O, a locked keychain).
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
    /// The record could not be deleted.
    public static func deleteFailed(_ detail: String) -> Self {
        Self(.deleteFailed, "The stored session could not be deleted: \(detail)")
    }

    /// True when the record was unreadable and moved aside.
    public var isCorrupt: Bool { kind == .corrupt }

    public var description: String { reason }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
