/// Decodes the CBOR subset in ``CBORValue`` (RFC 8949 §3) from untrusted
/// bytes: definite lengths only, no tags or floats, bounded depth and item
/// count, every length checked against the bytes left before anything is
/// allocated. Every failure is a ``CBORError``; no input crashes it
/// (fuzzed: Fuzz/WebAuthnParsersFuzz.swift).
struct CBORDecoder {
    /// The bounds on one decoded item.
    struct Limits: Sendable {
        /// Arrays and maps inside each other; an attestation object needs 4.
        var maximumDepth = 8
        /// Data items in total (a map entry counts two).
        var maximumItems = 512
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private var offset: Int
    private var items = 0

    private init(_ bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
        self.offset = 0
    }

    /// The one item `bytes` holds; bytes after it are an error.
    static func decode(_ bytes: [UInt8], limits: Limits = Limits()) throws(CBORError) -> CBORValue {
        let (value, consumed) = try decodePrefix(bytes, limits: limits)
        guard consumed == bytes.count else { throw .trailingBytes(at: consumed) }
        return value
    }

    /// The first item of `bytes` and how many bytes it took: an authenticator
    /// data's credential public key is followed by more data (WebAuthn §6.5.1).
    static func decodePrefix(_ bytes: [UInt8], limits: Limits = Limits()) throws(CBORError) -> (CBORValue, Int) {
        var decoder = CBORDecoder(bytes, limits: limits)
        let value = try decoder.item(depth: 0)
        return (value, decoder.offset)
    }

    private var remaining: Int { bytes.count - offset }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func take(_ count: Int) throws(CBORError) -> [UInt8] {
        guard count <= remaining else { throw .truncated(at: offset) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// The argument of a head (RFC 8949 §3): in the low five bits, or in the 1, 2, 4 or 8 bytes after.
    private mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24, 25, 26, 27:
            let width = 1 << Int(info - 24)
            var value: UInt64 = 0
            for byte in try take(width) { value = value << 8 | UInt64(byte) }
            return value
        case 31: throw .unsupported("an indefinite length", at: start)
        default: throw .malformed("reserved additional information \(info)", at: start)
        }
    }

    /// A length that fits the bytes left: each element takes at least `unit` bytes.
    private func length(_ argument: UInt64, unit: Int, at start: Int) throws(CBORError) -> Int {
        guard argument <= UInt64(remaining / unit) else { throw .truncated(at: start) }
        return Int(argument)
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        items += 1
        guard items <= limits.maximumItems else { throw .tooLarge("more than \(limits.maximumItems) items") }
        let start = offset
        let head = try byte()
        let major = head >> 5
        let info = head & 0x1f
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw .unsupported("simple value or float \(info)", at: start)
            }
        }
        if major == 6 { throw .unsupported("a tag", at: start) }
        let argument = try argument(info, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(length(argument, unit: 1, at: start)))
        case 3:
            let raw = try take(length(argument, unit: 1, at: start))
            let text = String(decoding: raw, as: UTF8.self)
            // Decoding repairs bad UTF-8 with U+FFFD; a repaired string reads back different.
            guard text.utf8.elementsEqual(raw) else { throw .invalidText(at: start) }
            return .text(text)
        case 4:
            guard depth < limits.maximumDepth else { throw .tooDeep(limit: limits.maximumDepth) }
            let count = try length(argument, unit: 1, at: start)
            var elements: [CBORValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        default:
            guard depth < limits.maximumDepth else { throw .tooDeep(limit: limits.maximumDepth) }
            let count = try length(argument, unit: 2, at: start)
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(count)
            var keys = Set<CBORValue>()
            for _ in 0..<count {
                let keyStart = offset
                let key = try item(depth: depth + 1)
                guard keys.insert(key).inserted else { throw .duplicateKey(at: keyStart) }
                entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
            }
            return .map(entries)
        }
    }
}
