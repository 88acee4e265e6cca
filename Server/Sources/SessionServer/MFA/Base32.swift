import Foundation

/// RFC 4648 base32 without padding: how TOTP secrets travel in `otpauth://` URIs
/// and how people type them into authenticator apps.
package enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The 5-bit value of each ASCII byte, either case; ``skipped`` for a space
    /// or `=`, ``invalid`` for the rest.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, byte) in alphabet.enumerated() {
            table[Int(byte)] = UInt8(index)
            if index < 26 { table[Int(byte | 0x20)] = UInt8(index) }
        }
        table[Int(UInt8(ascii: " "))] = skipped
        table[Int(UInt8(ascii: "="))] = skipped
        return table
    }()
    private static let invalid: UInt8 = 0xFF
    private static let skipped: UInt8 = 0xFE

    /// The bytes of `text` (letters in either case, spaces and `=` ignored); `nil` for any other character.
    package static func decode(_ text: String) -> [UInt8]? {
        // ASCII, every secret the server makes, goes straight to the table: no
        // `uppercased()` (8.9 % of a TOTP check, docs/BENCHMARKS.md, "Item 9's
        // figures"). Other text is uppercased first, which maps a few non-ASCII
        // letters (`ß`, `ſ`, `ı`) to ASCII ones, as the decode always did; any
        // non-ASCII byte left over finds no value in the table.
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return pack(text.uppercased().utf8) }
        return pack(text.utf8)
    }

    /// Five bits a character, eight a byte out; a trailing partial byte is dropped.
    private static func pack(_ utf8: some Collection<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in utf8 {
            let value = values[Int(byte)]
            if value == skipped { continue }
            guard value != invalid else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}
