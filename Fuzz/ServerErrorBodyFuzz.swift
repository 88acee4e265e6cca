import Foundation

// libFuzzer entry point: any response body must parse to a known shape or
// to nil — never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerErrorBody(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = ServerErrorBody.parse(data)
    return 0
}
