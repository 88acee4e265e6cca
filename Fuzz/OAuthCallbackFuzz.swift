import Foundation

// libFuzzer entry point: any bytes, read as a callback URL, must parse or be
// rejected with OAuthCallbackError — never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOAuthCallback(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let url = URL(string: text) else { return 0 }
    do {
        _ = try OAuthCallback.parse(url)
    } catch {
        // A typed rejection is the expected outcome for most inputs.
    }
    return 0
}
