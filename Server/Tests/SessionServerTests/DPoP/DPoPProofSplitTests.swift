import Foundation
import SessionCore
import Testing
@testable import SessionServer

/// `DPoPProof` finds the compact JWS's two dots in the string's UTF-8 buffer;
/// these check it refuses and accepts the shapes the generic split of the UTF-8
/// view did, and signs over the same bytes (docs/BENCHMARKS.md, "Round 3 — items 4 and 5").
struct DPoPProofSplitTests {
    /// The shape rule as it was: three segments when split on every dot, the first two not empty.
    static func isCompactJWSAsBefore(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 3 && !parts[0].isEmpty && !parts[1].isEmpty
    }

    static func refusedAsNotCompact(_ text: String) -> Bool {
        do {
            _ = try DPoPProof(compact: text)
            return false
        } catch {
            return error.message.contains("not a compact JWS")
        }
    }

    @Test func refusesTheShapesTheSplitRefused() {
        var generator = SystemRandomNumberGenerator()
        let pieces = [".", ".", "a", "eyJ0", "é", "\u{1F600}", "=", " ", "\u{301}"]
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...7, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(Self.refusedAsNotCompact(text) == !Self.isCompactJWSAsBefore(text), "\(text.debugDescription)")
        }
    }

    @Test func signsOverTheFirstTwoSegmentsAsBefore() throws {
        let key = DPoPTestKey()
        for jti in ["a", "é\u{301}", "\u{1F600}"] {
            let proof = key.proof(iat: 1_800_000_000, jti: jti)
            let parts = proof.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            let before = Data(proof.utf8.prefix(parts[0].count + 1 + parts[1].count))
            #expect(try DPoPProof(compact: proof).signingInput == before)
        }
    }
}
