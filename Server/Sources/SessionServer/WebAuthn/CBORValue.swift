/// One decoded CBOR data item (RFC 8949), in the subset WebAuthn uses:
/// integers, byte and text strings, arrays, maps, booleans and null.
///
/// Written by hand (docs/DESIGN.md, "Passkeys: what is written by hand"):
/// no CBOR package is among the server's dependencies.
enum CBORValue: Sendable, Hashable {
    case unsigned(UInt64)
    /// A negative integer, stored as RFC 8949 encodes it: the value is `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Entries in the order they were encoded; keys are unique (the decoder refuses duplicates).
    case map([CBORMapEntry])
    case bool(Bool)
    case null

    /// The integer, when it fits an `Int`.
    var int: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    var textString: String? {
        if case .text(let text) = self { text } else { nil }
    }

    var mapEntries: [CBORMapEntry]? {
        if case .map(let entries) = self { entries } else { nil }
    }

    /// The value under `key` in a map, or `nil` (also when this is not a map).
    subscript(key: CBORValue) -> CBORValue? {
        mapEntries?.first { $0.key == key }?.value
    }

    /// The value under the text key `key`.
    subscript(text key: String) -> CBORValue? { self[.text(key)] }

    /// The value under the integer key `key` (COSE labels are integers).
    subscript(int key: Int) -> CBORValue? {
        self[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))]
    }
}

/// One key and value of a CBOR map.
struct CBORMapEntry: Sendable, Hashable {
    var key: CBORValue
    var value: CBORValue
}
