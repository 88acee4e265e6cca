import Foundation

/// Writes the few CBOR items (RFC 8949 §3) an authenticator's attestation
/// object and COSE key are made of: integers, byte and text strings, maps.
///
/// Test support only: the SDK never reads or writes CBOR (the server reads
/// it, docs/PASSKEYS.md). Maps are written in the order given, so the
/// caller lists keys in CTAP2's canonical order (shorter first, then bytewise).
enum CBOR {
    indirect enum Item {
        case int(Int)
        case bytes(Data)
        case text(String)
        case map([(Item, Item)])
    }

    static func encode(_ item: Item) -> Data {
        var out = Data()
        write(item, to: &out)
        return out
    }

    private static func write(_ item: Item, to out: inout Data) {
        switch item {
        case .int(let value) where value >= 0:
            head(major: 0, UInt64(value), to: &out)
        case .int(let value):
            // Major type 1 holds -1 - n.
            head(major: 1, UInt64(-1 - value), to: &out)
        case .bytes(let data):
            head(major: 2, UInt64(data.count), to: &out)
            out.append(data)
        case .text(let text):
            head(major: 3, UInt64(text.utf8.count), to: &out)
            out.append(contentsOf: Array(text.utf8))
        case .map(let pairs):
            head(major: 5, UInt64(pairs.count), to: &out)
            for (key, value) in pairs {
                write(key, to: &out)
                write(value, to: &out)
            }
        }
    }

    /// The initial byte and the argument in the shortest form (§3, "preferred serialization").
    private static func head(major: UInt8, _ value: UInt64, to out: inout Data) {
        let type = major << 5
        switch value {
        case 0..<24: out.append(type | UInt8(value))
        case 24..<0x100: out.append(contentsOf: [type | 24, UInt8(value)])
        case 0x100..<0x10000: out.append(contentsOf: [type | 25, UInt8(value >> 8), UInt8(value & 0xFF)])
        case 0x10000..<0x1_0000_0000: out.append(type | 26); out.append(contentsOf: bigEndian(value, bytes: 4))
        default: out.append(type | 27); out.append(contentsOf: bigEndian(value, bytes: 8))
        }
    }

    static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8((value >> (8 * UInt64($0))) & 0xFF) }
    }
}
