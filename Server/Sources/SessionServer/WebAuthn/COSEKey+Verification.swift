import Crypto
import Foundation

extension COSEKey {
    /// Whether `signature` is this key's over `data`: ES256 signatures come
    /// DER-encoded (WebAuthn Level 3 §6.5.6), EdDSA ones as 64 raw bytes.
    /// A key or signature that does not parse is a signature that does not verify.
    func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        do {
            switch algorithm {
            case .es256:
                let key = try P256.Signing.PublicKey(rawRepresentation: publicKey)
                let parsed = try P256.Signing.ECDSASignature(derRepresentation: signature)
                // ECDSA over SHA-256 of the data, as COSE -7 defines it.
                return key.isValidSignature(parsed, for: SHA256.hash(data: data))
            case .edDSA:
                return try Curve25519.Signing.PublicKey(rawRepresentation: publicKey).isValidSignature(signature, for: data)
            }
        } catch {
            return false
        }
    }
}
