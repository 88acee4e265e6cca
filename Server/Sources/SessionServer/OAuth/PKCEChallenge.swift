import Crypto
import Foundation
import SessionCore

/// RFC 7636 checks: the shape of challenges and verifiers, and S256.
enum PKCEChallenge {
    /// 43–128 characters from the unreserved set (RFC 7636 §4.1 and §4.2).
    static func isWellFormed(_ value: String) -> Bool {
        (43...128).contains(value.utf8.count)
            && value.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"):
                    true
                default: false
                }
            }
    }

    /// `BASE64URL(SHA256(verifier))`.
    static func s256(_ verifier: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// True when `verifier` answers `challenge`, compared in constant time so
    /// the time taken does not reveal how much of a guess was right.
    static func verify(verifier: String, challenge: String) -> Bool {
        SHA256Hex.constantTimeEquals(s256(verifier), challenge)
    }
}
