import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238) as authenticator apps compute them
/// and GoTrue checks them: HMAC-SHA-1, 6 digits, 30-second steps.
package struct TOTP: Sendable {
    /// The shared secret's bytes (20 random bytes, RFC 4226 §4's recommended length).
    package let secret: [UInt8]
    static let period: TimeInterval = 30
    static let digits = 6
    /// Steps accepted on either side of the current one: a phone's clock a little off still works.
    static let skew: Int64 = 1

    // `package`, not internal: the benchmarks (Benchmarks/Sources/benchmarks, item 9) time the check beside raw HMAC-SHA-1.
    package init(secret: [UInt8]) {
        self.secret = secret
    }

    /// A new random secret.
    static func generate() -> TOTP {
        var generator = SystemRandomNumberGenerator()
        return TOTP(secret: (0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The secret as people type it and `otpauth://` URIs carry it.
    var base32Secret: String { Base32.encode(secret) }

    /// The 30-second step `date` falls in.
    package static func step(at date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / period).rounded(.down)) }

    /// The code for `step` (RFC 4226 §5.3's dynamic truncation).
    package func code(step: Int64) -> String {
        let code = String(Self.value(step: step, key: SymmetricKey(data: secret)))
        return String(repeating: "0", count: Self.digits - code.count) + code
    }

    /// The step whose code `code` is, within ``skew`` steps of `now`; `nil` when none matches.
    ///
    /// Every candidate is compared, in constant time, so the answer's timing says nothing of which matched.
    /// The key is made once and the codes compared as numbers: a `SymmetricKey` and two strings per step
    /// cost as much as the MACs (docs/BENCHMARKS.md, "Round 3 — items 4 and 5").
    package func matchingStep(of code: String, at now: Date) -> Int64? {
        guard code.utf8.count == Self.digits, code.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let presented = code.utf8.reduce(UInt32(0)) { $0 * 10 + UInt32($1 - 0x30) }
        let key = SymmetricKey(data: secret)
        let current = Self.step(at: now)
        var matched: Int64?
        for step in (current - Self.skew)...(current + Self.skew) {
            let differs = Self.value(step: step, key: key) ^ presented
            if differs == 0 { matched = matched ?? step }
        }
        return matched
    }

    /// The code of `step` as a number below 10^6: HMAC-SHA-1 of the big-endian step, truncated.
    private static func value(step: Int64, key: SymmetricKey) -> UInt32 {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key)
        return mac.withUnsafeBytes { mac in
            let offset = Int(mac[mac.count - 1] & 0x0F)
            let value = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
                | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
            return value % 1_000_000
        }
    }

    /// The `otpauth://totp/...` URI authenticator apps read from the QR code
    /// (the Key Uri Format of Google Authenticator, as GoTrue writes it).
    func uri(issuer: String, accountName: String) -> String {
        let label = Self.escape(issuer) + ":" + Self.escape(accountName)
        return "otpauth://totp/\(label)?algorithm=SHA1&digits=\(Self.digits)&issuer=\(Self.escape(issuer))"
            + "&period=\(Int(Self.period))&secret=\(base32Secret)"
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@")

    private static func escape(_ text: String) -> String {
        // RFC 3986's unreserved characters, ASCII only: a letter from another script is escaped too.
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

}
