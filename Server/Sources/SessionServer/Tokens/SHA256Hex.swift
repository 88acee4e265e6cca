import Crypto
import Foundation

/// Lowercase hex SHA-256 of text: how refresh tokens are stored, rate-limit
/// keys are kept, and Apple's ID tokens carry their nonce.
enum SHA256Hex {
    static func of(_ text: String) -> String {
        hex(SHA256.hash(data: Data(text.utf8)))
    }

    /// Lowercase hex of `bytes`, by table: `String(format:)` per byte cost
    /// more than the hash itself, twice on every refresh (docs/BENCHMARKS.md, "Rotation").
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in bytes {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// Equal strings, compared in constant time so the time taken does not
    /// reveal how much of a guess was right.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let (a, b) = (Array(lhs.utf8), Array(rhs.utf8))
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
