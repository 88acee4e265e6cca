import Foundation

// libFuzzer entry point for the DPoP proof parser and the htu normaliser
// (Server/Sources/SessionServer/DPoP, docs/DPOP.md): the first byte picks
// which, the rest is a `DPoP` header value as a client could send it. Every
// input must parse or throw a DPoPError — never crash, hang or allocate past
// its size. Properties checked on what parses:
// - a proof: alg ES256 was pinned, the key is 64 bytes, no jti over 64 characters,
//   and the signing input is a prefix of the input;
// - a normalised URL normalises to itself and has no query or fragment.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDPoPProof(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let selector = start[0]
    let text = String(decoding: UnsafeBufferPointer(start: start + 1, count: count - 1), as: UTF8.self)
    if selector % 2 == 0 {
        guard let proof = try? DPoPProof(compact: text) else { return 0 }
        fuzzCheck(proof.key.rawRepresentation.count == 64, "a key of \(proof.key.rawRepresentation.count) bytes")
        fuzzCheck(proof.claims.jti.count <= DPoPProof.maximumJTILength, "a jti of \(proof.claims.jti.count) characters")
        fuzzCheck(proof.signature.count == 64, "a signature of \(proof.signature.count) bytes")
        fuzzCheck(Data(text.utf8).starts(with: proof.signingInput), "the signing input is not the input's prefix")
    } else {
        guard let normalised = DPoPURL.normalised(text) else { return 0 }
        fuzzCheck(DPoPURL.normalised(normalised) == normalised, "\(normalised) normalises to something else")
        fuzzCheck(!normalised.contains("?") && !normalised.contains("#"), "\(normalised) kept a query or fragment")
    }
    return 0
}
