import Foundation
import SessionCore

/// The public P-256 key a DPoP proof carries in its `jwk` header (RFC 7517),
/// and its RFC 7638 thumbprint input.
struct DPoPPublicKey: Sendable, Hashable {
    /// The base64url coordinates as sent: the thumbprint hashes these exact strings.
    let x: String
    let y: String
    /// `x || y`, 64 bytes: the raw public key swift-crypto reads.
    let rawRepresentation: Data

    /// The members RFC 7638 hashes for an EC key, in their required (lexical)
    /// order, with no whitespace: `{"crv":"P-256","kty":"EC","x":"…","y":"…"}`.
    var thumbprintInput: String { #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"# }

    /// - Throws: ``DPoPError`` unless `jwk` is a public EC P-256 key with 32-byte coordinates.
    init(_ jwk: Members) throws(DPoPError) {
        // A private key in a proof is a client that leaks it; refused, never used (docs/DPOP.md).
        guard !jwk.hasPrivatePart else { throw .badKey("it contains the private key (d); send the public key only") }
        guard jwk.kty == "EC", jwk.crv == "P-256" else { throw .badKey("only kty EC with crv P-256 is accepted") }
        // Canonical base64url only, so one key has one thumbprint.
        guard let x = jwk.x, let y = jwk.y, Self.isCanonicalCoordinate(x), Self.isCanonicalCoordinate(y),
              let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y),
              xBytes.count == 32, yBytes.count == 32
        else { throw .badKey("x and y must be 32 bytes each, base64url without padding") }
        self.x = x
        self.y = y
        rawRepresentation = xBytes + yBytes
    }

    /// Whether `text` is the one unpadded base64url spelling of 32 bytes: 43
    /// characters of the URL-safe alphabet (no `+`, `/` or `=`), the last of
    /// which carries the final 4 bits, so its 2 low bits must be zero.
    ///
    /// The same answer as decoding and encoding again and comparing (which
    /// `DPoPCanonicalKeyTests` checks against on mutated inputs), without the two
    /// encodes: they were 6 % of a proof's check (docs/BENCHMARKS.md, "Item 9's figures").
    static func isCanonicalCoordinate(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(isCanonicalCoordinate(bytes:))
            ?? Array(text.utf8).withUnsafeBufferPointer(isCanonicalCoordinate(bytes:))
    }

    private static func isCanonicalCoordinate(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 43 else { return false }
        for byte in bytes.dropLast() where sextet(byte) == nil { return false }
        guard let last = sextet(bytes[42]) else { return false }
        return last & 0b11 == 0
    }

    /// The 6-bit value of a URL-safe base64 character, `nil` for any other byte.
    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// The `jwk` object as sent; `d` is noted, whatever its value.
    struct Members: Decodable, Sendable, Equatable {
        var kty: String?
        var crv: String?
        var x: String?
        var y: String?
        var hasPrivatePart = false

        enum CodingKeys: String, CodingKey { case kty, crv, x, y, d }

        /// No member yet (``DPoPPlainJSON`` fills them in).
        init() {}

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            kty = try c.decodeIfPresent(String.self, forKey: .kty)
            crv = try c.decodeIfPresent(String.self, forKey: .crv)
            x = try c.decodeIfPresent(String.self, forKey: .x)
            y = try c.decodeIfPresent(String.self, forKey: .y)
            hasPrivatePart = c.contains(.d)
        }
    }
}
