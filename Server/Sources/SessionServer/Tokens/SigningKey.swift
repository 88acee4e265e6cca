import Crypto
import Foundation
import SessionCore

/// An ES256 signing key with its key id.
public struct SigningKey: Sendable {
    public let kid: String
    let privateKey: P256.Signing.PrivateKey
    /// Derived once: `privateKey.publicKey` builds a new key object on every call, and every verification asks.
    let publicKey: P256.Signing.PublicKey
    public let createdAt: Date

    init(kid: String, privateKey: P256.Signing.PrivateKey, createdAt: Date) {
        self.kid = kid
        self.privateKey = privateKey
        self.publicKey = privateKey.publicKey
        self.createdAt = createdAt
    }

    /// A fresh key; the kid is random so replicas never collide.
    static func generate(now: Date) -> SigningKey {
        SigningKey(kid: newKid(), privateKey: P256.Signing.PrivateKey(), createdAt: now)
    }

    /// 64 random bits in hex. Not base64url: one kid in 64 began with `-`, and
    /// `auth-server keys retire -…` then read the kid as an option and refused.
    static func newKid() -> String {
        var generator = SystemRandomNumberGenerator()
        return SHA256Hex.hex((0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The public half as a JWK.
    public var jwk: JWK {
        let raw = publicKey.rawRepresentation
        return JWK(
            kty: "EC", crv: "P-256",
            x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(32)),
            kid: kid, alg: "ES256", use: "sig")
    }

    /// Signs `signingInput` (`header.payload`) and returns the base64url raw `r||s` signature.
    func sign(_ signingInput: String) throws -> String {
        let signature = try privateKey.signature(for: Data(signingInput.utf8))
        return Base64URL.encode(signature.rawRepresentation)
    }
}

extension JWK {
    /// The P-256 public key inside, if this is one.
    var p256PublicKey: P256.Signing.PublicKey? {
        guard kty == "EC", crv == "P-256", alg == nil || alg == "ES256",
            let x = x.flatMap(Base64URL.decode), let y = y.flatMap(Base64URL.decode), x.count == 32, y.count == 32
        else { return nil }
        do {
            return try P256.Signing.PublicKey(rawRepresentation: x + y)
        } catch {
            // A JWK that is not a point on the curve is unusable, not fatal.
            return nil
        }
    }
}
