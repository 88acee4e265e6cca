import Foundation

/// Keeps the one P-256 key an installation proves possession of (RFC 9449).
///
/// The key must never leave the device: not in a backup, not in a synced
/// Keychain. A session restored onto another device then finds no key, and
/// ends there with ``SessionError/proofKeyLost`` while the device it came
/// from keeps its session (docs/DPOP.md, "A restored device").
///
/// Implementations answer as the storage they wrap does: `nil` from
/// ``existingKey()`` when there is no key (never made, or gone with a
/// Keychain reset), and ``DPoPKeyError/unavailable`` when it cannot be read
/// now (a locked device, a busy Secure Enclave), which the client treats as
/// transient, never as a lost key.
public protocol DPoPKeyStore: Sendable {
    /// The key, or `nil` when there is none.
    ///
    /// - Throws: ``DPoPKeyError/unavailable`` when the key cannot be read right now.
    func existingKey() throws(DPoPKeyError) -> (any DPoPSigningKey)?

    /// Makes a new key and keeps it, replacing any key there was.
    ///
    /// - Throws: ``DPoPKeyError/unavailable`` when it cannot be kept right now.
    func createKey() throws(DPoPKeyError) -> any DPoPSigningKey
}

/// A P-256 key that signs DPoP proofs (ES256).
public protocol DPoPSigningKey: Sendable {
    /// The public key as `x || y`, 32 bytes each (CryptoKit's `rawRepresentation`).
    var publicKeyRawRepresentation: Data { get }

    /// An ES256 signature of `data`: `r || s`, 32 bytes each (RFC 7518 §3.4).
    ///
    /// - Throws: ``DPoPKeyError/unavailable`` when the key cannot sign right now.
    func signature(for data: Data) throws(DPoPKeyError) -> Data
}
