import Foundation

/// A signing key as `auth-server keys list` shows it: never the private key.
public struct SigningKeyInfo: Sendable, Hashable {
    /// What a key does now (docs/DESIGN.md, "Signing keys").
    public enum State: String, Sendable, Hashable {
        /// Signs new tokens, and verifies.
        case signing
        /// Verifies tokens signed before the last rotation; listed in the JWKS.
        case verifying
        /// Neither signs nor verifies.
        case retired
    }

    public var kid: String
    /// Rotation order: the active key with the highest generation signs.
    public var generation: Int
    public var createdAt: Date
    public var retiredAt: Date?
    public var state: State
}
