import Foundation

// libFuzzer entry point: any bytes, read as a token, must either decode or
// throw JWTDecodingError — never crash, never hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWTClaims(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    do {
        let jwt = try UnverifiedJWT(text)
        _ = jwt.claims.exp
    } catch {
        // A typed rejection is the expected outcome for most inputs.
    }
    return 0
}
