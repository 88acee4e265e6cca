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
        guard let x = jwk.x, let y = jwk.y, let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y),
              xBytes.count == 32, yBytes.count == 32,
              // Canonical base64url only, so one key has one thumbprint.
              Base64URL.encode(xBytes) == x, Base64URL.encode(yBytes) == y
        else { throw .badKey("x and y must be 32 bytes each, base64url without padding") }
        self.x = x
        self.y = y
        rawRepresentation = xBytes + yBytes
    }

    /// The `jwk` object as sent; `d` is noted, whatever its value.
    struct Members: Decodable, Sendable {
        var kty: String?
        var crv: String?
        var x: String?
        var y: String?
        var hasPrivatePart = false

        enum CodingKeys: String, CodingKey { case kty, crv, x, y, d }

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
