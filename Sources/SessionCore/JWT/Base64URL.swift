import Foundation

/// Base64url without padding (RFC 4648 §5), as JWTs and PKCE use it.
///
/// Byte by byte with a table, not through Foundation's base64 and
/// `replacingOccurrences`: a server decodes three segments per token it
/// verifies, and the Foundation route cost more than the JSON decoding that
/// follows (docs/BENCHMARKS.md, "Where the request's time goes").
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// 6-bit value of each ASCII byte; 0xFF for bytes outside the alphabet.
    /// `+` and `/` are accepted too, as the standard alphabet's spelling of `-` and `_`.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    /// Encodes `data` as unpadded base64url.
    public static func encode(_ data: some DataProtocol) -> String {
        let bytes = Array(data)
        var output = [UInt8]()
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        alphabet.withUnsafeBufferPointer { alphabet in
            func append(_ chunk: UInt32, _ shift: UInt32) { output.append(alphabet[Int((chunk >> shift) & 0x3F)]) }
            var index = 0
            while index + 3 <= bytes.count {
                let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                append(chunk, 18)
                append(chunk, 12)
                append(chunk, 6)
                append(chunk, 0)
                index += 3
            }
            switch bytes.count - index {
            case 1:
                let chunk = UInt32(bytes[index]) << 16
                append(chunk, 18)
                append(chunk, 12)
            case 2:
                let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                append(chunk, 18)
                append(chunk, 12)
                append(chunk, 6)
            default:
                break
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded or padded base64url (or standard base64); `nil` if
    /// `text` is not that: a byte outside the alphabet, a length no encoding
    /// has, or padding anywhere but at the end.
    public static func decode(_ text: some StringProtocol) -> Data? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
    }

    private static func decode(bytes input: UnsafeBufferPointer<UInt8>) -> Data? {
        // Up to two `=` at the end, only where they complete a group of four.
        var end = input.count
        while end > 0, input[end - 1] == UInt8(ascii: "=") { end -= 1 }
        let padding = input.count - end
        if padding > 0, padding > 2 || input.count % 4 != 0 { return nil }
        if end % 4 == 1 { return nil }
        var output = [UInt8]()
        output.reserveCapacity(end * 3 / 4)
        let valid = values.withUnsafeBufferPointer { table -> Bool in
            var accumulator: UInt32 = 0
            var bits: UInt32 = 0
            for index in 0..<end {
                let value = table[Int(input[index])]
                guard value != 0xFF else { return false }
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> bits))
                }
            }
            return true
        }
        return valid ? Data(output) : nil
    }
}
