/// A tiny CBOR encoder for the tests (RFC 8949 preferred serialization):
/// the software authenticator builds its attestation objects and COSE keys
/// with it, independently of the server's decoder.
indirect enum TestCBOR {
    case int(Int)
    case bytes([UInt8])
    case text(String)
    case array([TestCBOR])
    case map([(TestCBOR, TestCBOR)])
    case bool(Bool)
    /// Bytes written as they are: for malformed input.
    case raw([UInt8])

    var encoded: [UInt8] {
        switch self {
        case .int(let n): n >= 0 ? Self.head(0, UInt64(n)) : Self.head(1, UInt64(-1 - n))
        case .bytes(let b): Self.head(2, UInt64(b.count)) + b
        case .text(let t): Self.head(3, UInt64(t.utf8.count)) + Array(t.utf8)
        case .array(let items): Self.head(4, UInt64(items.count)) + items.flatMap(\.encoded)
        case .map(let entries): Self.head(5, UInt64(entries.count)) + entries.flatMap { $0.0.encoded + $0.1.encoded }
        case .bool(let b): [b ? 0xf5 : 0xf4]
        case .raw(let b): b
        }
    }

    static func head(_ major: UInt8, _ n: UInt64) -> [UInt8] {
        let type = major << 5
        func be(_ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: n >> ($0 * 8)) } }
        switch n {
        case 0..<24: return [type | UInt8(n)]
        case 24...0xff: return [type | 24] + be(1)
        case 0x100...0xffff: return [type | 25] + be(2)
        case 0x10000...0xffff_ffff: return [type | 26] + be(4)
        default: return [type | 27] + be(8)
        }
    }
}
