import Foundation

/// Why a ``DPoPKeyStore`` could not hand out or use its key.
public struct DPoPKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: String, Sendable, Hashable { case unavailable }

    private let kind: Kind
    /// What happened, for the developer (never key material).
    public let detail: String

    private init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The key cannot be read or used right now (the device is locked, the
    /// Secure Enclave is busy, a read failed): transient, the session is kept.
    public static let unavailable = DPoPKeyError(.unavailable, "The device key cannot be used right now.")

    /// A copy with `detail` describing the cause.
    public func with(detail: String) -> DPoPKeyError { DPoPKeyError(kind, detail) }

    public var description: String { "DPoPKeyError.\(kind.rawValue): \(detail)" }

    public static func == (lhs: DPoPKeyError, rhs: DPoPKeyError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
