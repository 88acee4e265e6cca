import Foundation
import SessionCore

/// A DPoP proof as read from its compact JWS (RFC 9449 §4.2), before any
/// check of its signature, method, URL or time.
///
/// Parsing is apart from verification (DPoPProof+Verification.swift), so the
/// parser needs Foundation and SessionCore's base64url alone and is fuzzed
/// (Fuzz/DPoPProofFuzz.swift). Only what docs/DPOP.md accepts parses:
/// `typ: dpop+jwt`, `alg: ES256`, a public P-256 `jwk`.
struct DPoPProof: Sendable, Hashable {
    /// Longer is no proof a client sends: a P-256 proof is about 600 bytes.
    static let maximumLength = 4096
    /// The longest `jti` accepted (docs/DPOP.md; clients send 22 characters).
    static let maximumJTILength = 64

    let key: DPoPPublicKey
    let claims: DPoPClaims
    /// `header.payload`, the bytes the signature covers.
    let signingInput: Data
    /// The raw 64-byte `r || s` ES256 signature.
    let signature: Data

    private static let decoder = JSONDecoder()

    /// Reads a proof from a `DPoP` header's value.
    ///
    /// - Throws: ``DPoPError`` for anything but a well-formed ES256 proof with a public P-256 key.
    init(compact text: String) throws(DPoPError) {
        guard text.utf8.count <= Self.maximumLength else { throw .malformed("longer than \(Self.maximumLength) bytes") }
        // The two dots are found in the string's UTF-8 buffer: a String split walks the ~600
        // characters through grapheme breaking, and a generic split of the UTF-8 view still
        // cost a fifth of the parse (docs/BENCHMARKS.md, "Round 3 — items 4 and 5").
        var text = text
        let dots = text.withUTF8 { bytes -> (first: Int, last: Int, signingInput: Data)? in
            let dot = UInt8(ascii: ".")
            guard let first = bytes.firstIndex(of: dot), let last = bytes.lastIndex(of: dot), first != last,
                  !bytes[(first + 1)..<last].contains(dot)
            else { return nil }
            return (first, last, Data(bytes[..<last]))
        }
        // Exactly three segments, the first two not empty.
        guard let dots, dots.first > 0, dots.last > dots.first + 1 else { throw .malformed("not a compact JWS") }
        // A dot is ASCII, so these offsets fall on character boundaries; the string is native
        // UTF-8 now (withUTF8 made it so), where they cost O(1).
        let utf8 = text.utf8
        let firstDot = utf8.index(utf8.startIndex, offsetBy: dots.first)
        let lastDot = utf8.index(utf8.startIndex, offsetBy: dots.last)
        let parts = [text[..<firstDot], text[utf8.index(after: firstDot)..<lastDot], text[utf8.index(after: lastDot)...]]
        guard let headerData = Base64URL.decode(parts[0]) else { throw .malformed("header is not base64url") }
        // Plainly simple JSON by the fast path, anything else by JSONDecoder (DPoPPlainJSON).
        let header: Header
        if let plain = DPoPPlainJSON.header(headerData) {
            header = plain
        } else {
            do { header = try Self.decoder.decode(Header.self, from: headerData) } catch {
                throw .malformed("header is not a JSON object with typ, alg and jwk")
            }
        }
        guard header.typ == "dpop+jwt" else { throw .wrongType }
        // Pinned before any key or signature is looked at: `none` and HS256 never reach a signature routine.
        guard header.alg == "ES256" else { throw .unsupportedAlgorithm }
        guard let jwk = header.jwk else { throw .badKey("no jwk in the header") }
        key = try DPoPPublicKey(jwk)
        guard let payload = Base64URL.decode(parts[1]) else { throw .malformed("payload is not base64url") }
        if let plain = DPoPPlainJSON.claims(payload) {
            claims = plain
        } else {
            do { claims = try Self.decoder.decode(DPoPClaims.self, from: payload) } catch {
                throw .malformed("payload needs jti, htm and htu strings and a numeric iat")
            }
        }
        try claims.validateShape()
        guard let signature = Base64URL.decode(parts[2]), signature.count == 64 else {
            throw .malformed("signature is not 64 bytes of base64url")
        }
        self.signature = signature
        signingInput = dots.signingInput
    }

    /// The JOSE header's members this reads; internal for ``DPoPPlainJSON`` and its tests.
    struct Header: Decodable, Equatable {
        var typ: String?
        var alg: String?
        var jwk: DPoPPublicKey.Members?
    }
}

/// The claims of a DPoP proof (RFC 9449 §4.2).
struct DPoPClaims: Sendable, Hashable, Decodable {
    var jti: String
    var htm: String
    var htu: String
    /// Seconds since 1970; a fraction is tolerated, as JSON numbers allow one.
    var iat: Double
    /// base64url SHA-256 of the access token, on resource requests.
    var ath: String?
    var nonce: String?

    func validateShape() throws(DPoPError) {
        guard !jti.isEmpty, jti.count <= DPoPProof.maximumJTILength else {
            throw .malformed("jti must be 1 to \(DPoPProof.maximumJTILength) characters")
        }
        guard !htm.isEmpty, htm.utf8.count <= 16 else { throw .malformed("htm must be an HTTP method") }
        guard !htu.isEmpty, htu.utf8.count <= 2048 else { throw .malformed("htu must be a URL") }
        guard iat.isFinite, abs(iat) < 1e11 else { throw .malformed("iat must be seconds since 1970") }
        if let ath, ath.utf8.count > 128 { throw .malformed("ath is too long") }
        if let nonce, nonce.utf8.count > 512 { throw .malformed("nonce is too long") }
    }
}
