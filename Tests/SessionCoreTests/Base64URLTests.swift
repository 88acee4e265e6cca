import Foundation
import SessionCore
import Testing

/// The table-driven codec against Foundation's base64, which it replaced.
struct Base64URLTests {
    /// Foundation's base64, spelled base64url and unpadded: what the codec must produce.
    static func reference(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func encodesAndDecodesLikeFoundationForEveryLengthAndManyContents() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            for _ in 0..<8 {
                let data = Data((0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
                let encoded = Base64URL.encode(data)
                #expect(encoded == Self.reference(data))
                #expect(Base64URL.decode(encoded) == data)
                // Standard base64 with padding decodes too, as before.
                #expect(Base64URL.decode(data.base64EncodedString()) == data)
            }
        }
    }

    @Test func refusesWhatNoEncodingProduces() {
        // A length of 4n + 1, a byte outside the alphabet, padding in the middle or past two.
        for text in ["a", "abcde", "ab.c", "ab c", "ab=c", "a===", "ab===", "ab=", "é", "abc\u{0}"] {
            #expect(Base64URL.decode(text) == nil, "\(text)")
        }
        #expect(Base64URL.decode("") == Data())
        #expect(Base64URL.decode("YQ==") == Data("a".utf8))
        #expect(Base64URL.decode("YQ") == Data("a".utf8))
    }
}
