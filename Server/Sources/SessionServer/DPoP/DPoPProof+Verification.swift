import Crypto
import Foundation
import SessionCore

extension DPoPProof {
    /// Whether the signature is the proof's own `jwk`'s over `header.payload`
    /// (ES256: ECDSA P-256 over SHA-256, raw `r || s`, RFC 7518 §3.4). A key
    /// that is not a point on the curve is a signature that does not verify.
    var isSignedByItsKey: Bool {
        do {
            let publicKey = try P256.Signing.PublicKey(rawRepresentation: key.rawRepresentation)
            let parsed = try P256.Signing.ECDSASignature(rawRepresentation: signature)
            return publicKey.isValidSignature(parsed, for: signingInput)
        } catch {
            return false
        }
    }
}

extension DPoPPublicKey {
    /// The RFC 7638 thumbprint, base64url without padding: the `jkt` a session
    /// and its access tokens (`cnf.jkt`) are bound to.
    var thumbprint: String { Base64URL.encode(Data(SHA256.hash(data: Data(thumbprintInput.utf8)))) }
}

extension DPoPClaims {
    /// The `ath` a resource request's proof must carry for `accessToken`:
    /// base64url SHA-256 of its ASCII bytes (RFC 9449 §4.2).
    static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8))))
    }
}
