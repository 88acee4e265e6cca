import Foundation
import SessionCore
import Testing
@testable import SessionServer

/// ``DPoPPublicKey/isCanonicalCoordinate(_:)`` (a length and alphabet check)
/// gives the answer the key check gave before it: decode, 32 bytes, encode
/// again, the same text (docs/BENCHMARKS.md, "Item 9's figures").
struct DPoPCanonicalKeyTests {
    /// The check as it was: decode and encode again.
    static func byRoundTrip(_ text: String) -> Bool {
        guard let bytes = Base64URL.decode(text), bytes.count == 32 else { return false }
        return Base64URL.encode(bytes) == text
    }

    /// What mutations insert: the alphabet's edges, the standard alphabet's
    /// `+` and `/`, padding, white space and non-ASCII letters.
    static let inserted: [String] = ["A", "Z", "a", "z", "0", "9", "-", "_", "+", "/", "=", " ", "\n", ".", "é", "\u{212A}", "Ａ", "\u{0}"]

    @Test func agreesWithTheRoundTripOnMutatedCoordinates() {
        var generator = SystemRandomNumberGenerator()
        var accepted = 0
        var refused = 0
        for round in 0..<20_000 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var characters = Array(Base64URL.encode(Data(bytes)))
            switch round % 6 {
            case 0:
                break
            case 1:
                // Every value of the last character: 16 of 64 are canonical.
                characters[42] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")[round / 6 % 64]
            case 2:
                characters[Int.random(in: 0..<characters.count, using: &generator)] = Character(Self.inserted.randomElement(using: &generator)!)
            case 3:
                characters.insert(Character(Self.inserted.randomElement(using: &generator)!), at: Int.random(in: 0...characters.count, using: &generator))
            case 4:
                characters.remove(at: Int.random(in: 0..<characters.count, using: &generator))
            default:
                // Other lengths, padded or not: 31 and 33 bytes, and the standard alphabet.
                let other = (0..<(round % 2 == 0 ? 31 : 33)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                characters = Array(Data(other).base64EncodedString())
            }
            let text = String(characters)
            let expected = Self.byRoundTrip(text)
            #expect(DPoPPublicKey.isCanonicalCoordinate(text) == expected, "\(text.debugDescription)")
            if expected { accepted += 1 } else { refused += 1 }
        }
        // Both answers were exercised, often.
        #expect(accepted > 3_000 && refused > 3_000, "\(accepted) accepted, \(refused) refused")
    }

    @Test func paddedAndStandardAlphabetSpellingsAreRefused() {
        // 0xFB first: the text starts with `-`, which the standard alphabet spells `+`.
        let canonical = Base64URL.encode(Data((0..<32).map { UInt8(($0 * 37 + 251) % 256) }))
        #expect(DPoPPublicKey.isCanonicalCoordinate(canonical))
        #expect(!DPoPPublicKey.isCanonicalCoordinate(canonical + "="))
        let standard = canonical.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        #expect(standard != canonical && !DPoPPublicKey.isCanonicalCoordinate(standard))
        #expect(Base64URL.decode(standard) == Base64URL.decode(canonical))
        // The last character with a low bit set decodes to the same 32 bytes: refused.
        #expect(!DPoPPublicKey.isCanonicalCoordinate(String(canonical.dropLast()) + "B"))
    }
}
