#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation

/// A P-256 key held in memory (CryptoKit's, or swift-crypto's elsewhere): what
/// ``FileDPoPKeyStore`` and the Keychain fallback keep.
public struct SoftwareDPoPKey: DPoPSigningKey {
    let privateKey: P256.Signing.PrivateKey

    /// A new random key.
    public init() {
        privateKey = P256.Signing.PrivateKey()
    }

    /// The key whose 32-byte scalar is `rawRepresentation`.
    ///
    /// - Throws: ``DPoPKeyError/unavailable`` when the bytes are not a P-256 key.
    public init(rawRepresentation: Data) throws(DPoPKeyError) {
        do {
            privateKey = try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation)
        } catch {
            throw DPoPKeyError.unavailable.with(detail: "the stored bytes are not a P-256 key")
        }
    }

    /// The private scalar, for the store that keeps it (never logged).
    var rawRepresentation: Data { privateKey.rawRepresentation }

    public var publicKeyRawRepresentation: Data { privateKey.publicKey.rawRepresentation }

    public func signature(for data: Data) throws(DPoPKeyError) -> Data {
        do {
            return try privateKey.signature(for: data).rawRepresentation
        } catch {
            throw DPoPKeyError.unavailable.with(detail: "signing failed: \(error)")
        }
    }
}
