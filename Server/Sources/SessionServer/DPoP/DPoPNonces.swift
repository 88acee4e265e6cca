import Crypto
import Foundation
import SessionCore

/// Server-issued DPoP nonces (RFC 9449 §8), stateless so replicas agree
/// without talking: a nonce is HMAC-SHA256, under a secret derived from the
/// key-encryption key (which every replica of one database holds, or it could
/// not open the signing keys), over the number of the 5-minute window it was
/// issued in. The current and the previous window's nonces are accepted, so
/// a nonce lives 5 to 10 minutes (docs/DPOP.md, "Nonces").
struct DPoPNonces: Sendable {
    /// The length of a window, in seconds.
    static let window: TimeInterval = 300

    private let secret: SymmetricKey

    /// The secret is HKDF-SHA256 of the KEK with its own label: the nonce MAC
    /// never shares a key with the sealing of the signing keys.
    init(kek: KeyEncryptionKey) {
        secret = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: kek.key, info: Data("sessionkit dpop nonce v1".utf8), outputByteCount: 32)
    }

    /// The nonce to hand out at `now` (the `DPoP-Nonce` header).
    func nonce(at now: Date) -> String {
        nonce(window: Self.windowNumber(now))
    }

    /// Whether `nonce` was issued in the window of `now` or the one before it.
    func accepts(_ nonce: String?, at now: Date) -> Bool {
        guard let nonce else { return false }
        let current = Self.windowNumber(now)
        // Both compared, whatever the first gives, so the time says nothing about which matched.
        let inCurrent = SHA256Hex.constantTimeEquals(nonce, self.nonce(window: current))
        let inPrevious = SHA256Hex.constantTimeEquals(nonce, self.nonce(window: current - 1))
        return inCurrent || inPrevious
    }

    private static func windowNumber(_ now: Date) -> Int64 {
        Int64((now.timeIntervalSince1970 / window).rounded(.down))
    }

    private func nonce(window: Int64) -> String {
        let message = Data("dpop-nonce.".utf8) + withUnsafeBytes(of: window.bigEndian) { Data($0) }
        return Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: message, using: secret)))
    }
}
