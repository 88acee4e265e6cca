import Foundation

// libFuzzer entry point: any bytes, read as a token, must either decode or
// throw JWTDecodingError — never crash, never hang. The same bytes go through
// the table-driven Base64URL decoder, against the Foundation route it replaced:
// - text with a character outside base64 and base64url is refused;
// - on unpadded base64url text, both decode to the same bytes (or both refuse);
// - whatever it decodes re-encodes to text that decodes to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWTClaims(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    do {
        let jwt = try UnverifiedJWT(text)
        _ = jwt.claims.exp
    } catch {
        // A typed rejection is the expected outcome for most inputs.
    }
    checkBase64URL(text)
    for segment in text.split(separator: ".", omittingEmptySubsequences: false).prefix(4) { checkBase64URL(segment) }
    return 0
}

private func checkBase64URL(_ text: some StringProtocol) {
    let decoded = Base64URL.decode(text)
    if let decoded {
        fuzzCheck(Base64URL.decode(Base64URL.encode(decoded)) == decoded, "base64url does not round-trip: \(text)")
    }
    let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".unicodeScalars)
    let standard = alphabet.union("+/=".unicodeScalars)
    if !text.unicodeScalars.allSatisfy({ standard.contains($0) }) {
        fuzzCheck(decoded == nil, "base64url decoded text outside its alphabet: \(text)")
        return
    }
    guard text.unicodeScalars.allSatisfy({ alphabet.contains($0) }) else { return }
    let base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    let remainder = base64.utf8.count % 4
    let reference: Data? =
        remainder == 1 ? nil : Data(base64Encoded: base64 + String(repeating: "=", count: (4 - remainder) % 4))
    fuzzCheck(decoded == reference, "base64url disagrees with Foundation on \(text)")
}
