/// The little CBOR (RFC 8949) a simulated authenticator writes: the
/// attestation object (format `none`) and the COSE key of its credential.
/// Encoding only, and apart from the server's decoder (docs/PASSKEYS.md), so
/// a defect in one is not mirrored in the other.
enum SimulatedCBOR {
    case int(Int)
    case bytes([UInt8])
    case text(String)
    case map([(SimulatedCBOR, SimulatedCBOR)])

    var encoded: [UInt8] {
        switch self {
        case .int(let value) where value >= 0: Self.head(major: 0, UInt64(value))
        case .int(let value): Self.head(major: 1, UInt64(-1 - value))
        case .bytes(let bytes): Self.head(major: 2, UInt64(bytes.count)) + bytes
        case .text(let text): Self.head(major: 3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .map(let pairs): Self.head(major: 5, UInt64(pairs.count)) + pairs.flatMap { $0.0.encoded + $0.1.encoded }
        }
    }

    /// The initial byte and the shortest argument (§3).
    private static func head(major: UInt8, _ argument: UInt64) -> [UInt8] {
        let top = major << 5
        switch argument {
        case 0..<24: return [top | UInt8(argument)]
        case 24...0xFF: return [top | 24, UInt8(argument)]
        case 0x100...0xFFFF: return [top | 25] + bigEndian(argument, count: 2)
        case 0x1_0000...0xFFFF_FFFF: return [top | 26] + bigEndian(argument, count: 4)
        default: return [top | 27] + bigEndian(argument, count: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
