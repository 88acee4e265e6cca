import Foundation

// libFuzzer entry point for the DPoP proof parser, its JSON fast path and the
// htu normaliser (Server/Sources/SessionServer/DPoP, docs/DPOP.md): the first
// byte picks which (0 mod 4 a proof, 2 mod 4 a JSON object, odd a URL), the
// rest is a `DPoP` header value as a client could send it, or the object.
// Every input must parse or throw a DPoPError — never crash, hang or allocate
// past its size. Properties checked on what parses:
// - a proof: alg ES256 was pinned, the key is 64 bytes, no jti over 64 characters,
//   and the signing input is a prefix of the input;
// - the JSON fast path (DPoPPlainJSON), on the proof's decoded header and
//   payload and on raw objects: whenever it answers, JSONDecoder answers the same;
// - a normalised URL normalises to itself and has no query or fragment.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDPoPProof(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let selector = start[0]
    let text = String(decoding: UnsafeBufferPointer(start: start + 1, count: count - 1), as: UTF8.self)
    switch selector % 4 {
    case 0:
        for segment in text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).prefix(2) {
            if let json = Base64URL.decode(Substring(segment)) { checkPlainJSON(json) }
        }
        guard let proof = try? DPoPProof(compact: text) else { return 0 }
        fuzzCheck(proof.key.rawRepresentation.count == 64, "a key of \(proof.key.rawRepresentation.count) bytes")
        fuzzCheck(proof.claims.jti.count <= DPoPProof.maximumJTILength, "a jti of \(proof.claims.jti.count) characters")
        fuzzCheck(proof.signature.count == 64, "a signature of \(proof.signature.count) bytes")
        fuzzCheck(Data(text.utf8).starts(with: proof.signingInput), "the signing input is not the input's prefix")
    case 2:
        checkPlainJSON(Data(UnsafeBufferPointer(start: start + 1, count: count - 1)))
    default:
        guard let normalised = DPoPURL.normalised(text) else { return 0 }
        fuzzCheck(DPoPURL.normalised(normalised) == normalised, "\(normalised) normalises to something else")
        fuzzCheck(!normalised.contains("?") && !normalised.contains("#"), "\(normalised) kept a query or fragment")
    }
    return 0
}

/// The differential check of the fast path: its answer, when it gives one, is JSONDecoder's.
func checkPlainJSON(_ json: Data) {
    if let fast = DPoPPlainJSON.header(json) {
        let decoded = try? JSONDecoder().decode(DPoPProof.Header.self, from: json)
        fuzzCheck(fast == decoded, "the header fast path read \(String(decoding: json, as: UTF8.self).debugDescription) otherwise")
    }
    if let fast = DPoPPlainJSON.claims(json) {
        let decoded = try? JSONDecoder().decode(DPoPClaims.self, from: json)
        fuzzCheck(fast == decoded, "the claims fast path read \(String(decoding: json, as: UTF8.self).debugDescription) otherwise")
    }
}
