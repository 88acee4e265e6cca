import Foundation
import Testing
@testable import SessionServer

/// `Base32.decode`'s ASCII table gives the answer the decode through
/// `uppercased()` and an alphabet search gave, for any text, non-ASCII
/// included (docs/BENCHMARKS.md, "Item 9's figures").
struct Base32DecodeTests {
    /// The decode as it was.
    static func byUppercasing(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for scalar in text.uppercased().utf8 where scalar != UInt8(ascii: " ") && scalar != UInt8(ascii: "=") {
            guard let value = Base32.alphabet.firstIndex(of: scalar) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }

    /// The alphabet in both cases, what is skipped, what is not base32, and
    /// non-ASCII letters, some of which `uppercased()` turns into ASCII ones.
    static let characters: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz234567")
        + [" ", "=", "0", "1", "8", "9", "-", "\n", "\u{0}", "\u{7F}", "ß", "ſ", "ı", "ﬀ", "é", "ŉ", "Ａ", "\u{212A}", "ǰ"]

    @Test func theTableAnswersAsTheUppercasedDecode() {
        var generator = SystemRandomNumberGenerator()
        var decoded = 0
        for round in 0..<20_000 {
            let text: String
            if round % 2 == 0 {
                // A real secret, maybe lowercased or spaced, sometimes one character changed.
                let secret = Base32.encode((0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) })
                var spelled = Array(Bool.random(using: &generator) ? secret.lowercased() : secret)
                if round % 4 == 0 {
                    spelled[Int.random(in: 0..<spelled.count, using: &generator)] = Self.characters.randomElement(using: &generator)!
                }
                text = String(spelled)
            } else {
                text = String((0..<Int.random(in: 0...40, using: &generator)).map { _ in Self.characters.randomElement(using: &generator)! })
            }
            let expected = Self.byUppercasing(text)
            #expect(Base32.decode(text) == expected, "\(text.debugDescription)")
            if expected != nil { decoded += 1 }
        }
        #expect(decoded > 5_000, "\(decoded) decoded")
        // Non-ASCII that uppercases to base32 decodes as before ("ß" is "SS").
        #expect(Base32.decode("ß") == Self.byUppercasing("SS"))
    }
}
