import Crypto
import Foundation
import SessionCore

/// Makes, hashes and seals opaque refresh tokens.
///
/// A refresh token is 256 random bits, base64url (43 characters). The
/// database keeps only its SHA-256 hash, so a leaked database cannot be
/// replayed.
///
/// To hand back "the same successor" (grace window, crash before save)
/// without storing it in plaintext, the successor is stored sealed with
/// AES-GCM under a key derived (HKDF-SHA256) from its parent token. We chose
/// sealing over deriving the successor as HMAC(server secret, parent):
/// successors stay truly random, no long-lived master secret sits in the
/// database, and someone holding one stolen token plus a database dump can
/// open one link of the chain, not compute every future token offline.
enum RefreshTokenCodec {
    /// A new random refresh token.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    /// The lowercase hex SHA-256 of `token`: the only form stored.
    static func hash(_ token: String) -> String {
        SHA256Hex.of(token)
    }

    /// Seals `successor` so only a caller presenting `parent` can open it.
    static func seal(successor: String, parent: String) throws -> String {
        let box = try AES.GCM.seal(Data(successor.utf8), using: key(from: parent))
        guard let combined = box.combined else { throw AuthError.internalFailure }
        return Base64URL.encode(combined)
    }

    /// Opens what ``seal(successor:parent:)`` produced.
    static func open(sealed: String, parent: String) throws -> String {
        guard let data = Base64URL.decode(sealed) else { throw AuthError.internalFailure }
        let plain = try AES.GCM.open(AES.GCM.SealedBox(combined: data), using: key(from: parent))
        guard let token = String(data: plain, encoding: .utf8) else { throw AuthError.internalFailure }
        return token
    }

    /// What a successor sealed under the KEK by a factor verify is bound to:
    /// its parent's hash, so it opens for that parent only (docs/MFA.md).
    static func verifySuccessorBinding(parentHash: String) -> String {
        "refresh successor of " + parentHash
    }

    private static func key(from parent: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(parent.utf8)),
            info: Data("sessionkit refresh successor v1".utf8),
            outputByteCount: 32)
    }
}
