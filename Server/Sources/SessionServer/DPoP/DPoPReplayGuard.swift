import Foundation

/// Remembers which DPoP proofs were used, so each `jti` is accepted once per
/// key within the proof window (RFC 9449 §11.1). The server's ``AuthStore`` is
/// one: a table shared by every replica on PostgreSQL (AuthStore+DPoP.swift).
public protocol DPoPReplayGuard: Sendable {
    /// Records the proof `key` (a hash of the key's thumbprint and the `jti`)
    /// until `expiresAt`; `true` when it was not recorded before.
    func recordFirstUse(of key: String, until expiresAt: Date, now: Date) async throws -> Bool
}
