import Foundation
import Testing

@testable import SessionServer

/// The QR encoder's structure against known answers from ISO/IEC 18004.
/// That scanners read it is checked by decoding in Server/scripts/supabase-mfa-acceptance.sh (zbar).
struct QRCodeTests {
    @Test(arguments: [(0, 0b101010000010010), (1, 0b101000100100101), (2, 0b101111001111100), (3, 0b101101101001011),
        (4, 0b100010111111001), (5, 0b100000011001110), (6, 0b100111110010111), (7, 0b100101010100000)])
    func formatBitsAreTheStandardsForLevelM(mask: Int, bits: Int) {
        #expect(QRGrid.formatBits(mask: mask) == bits)
    }

    @Test func versionBitsAreTheStandards() {
        #expect(QRGrid.versionBits(7) == 0b000111110010010100)
        #expect(QRGrid.versionBits(10) == 0b001010010011010011)
        #expect(QRGrid.versionBits(20) == 0b010100100110100110)
    }

    @Test func reedSolomonGivesTheStandardsErrorCorrection() {
        // "HELLO WORLD" at 1-M, the worked example of the standard's Annex I.
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(ReedSolomon.remainder(data, divisor: ReedSolomon.divisor(degree: 10)) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test func versionTableAddsUpToEachSymbolsCodewords() {
        // Total codewords per version (ISO/IEC 18004 Table 1): data plus error correction.
        let totals = [26, 44, 70, 100, 134, 172, 196, 242, 292, 346, 404, 466, 532, 581, 655, 733, 815, 901, 991, 1085]
        for (version, total) in zip(QRVersion.levelM, totals) {
            #expect(version.dataCodewords + version.ecPerBlock * version.blocks.count == total, "version \(version.number)")
        }
        #expect(QRVersion.levelM[9].alignmentPositions == [6, 28, 50])
        #expect(QRVersion.levelM[13].alignmentPositions == [6, 26, 46, 66])
    }

    @Test func picksTheSmallestVersionAndDrawsFindersAndTiming() throws {
        let uri = "otpauth://totp/example.com:ada@example.com?algorithm=SHA1&digits=6&issuer=example.com&period=30"
            + "&secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
        let code = try QRCode(bytes: Array(uri.utf8))
        #expect(code.version.number == 8)
        #expect(code.size == 49)
        // The top-left finder: a dark ring, a light ring, a dark 3×3 core.
        #expect((0..<7).allSatisfy { code.modules[0][$0] && code.modules[6][$0] })
        #expect(!code.modules[1][1] && code.modules[3][3] && !code.modules[7][7])
        // The timing row alternates between the finders.
        #expect((8..<(code.size - 8)).allSatisfy { code.modules[6][$0] == ($0 % 2 == 0) })
        // The dark module beside the bottom-left finder.
        #expect(code.modules[code.size - 8][8])
    }

    @Test func refusesMoreThanVersion20Holds() {
        #expect(throws: QRCodeError.self) { try QRCode(bytes: Array(repeating: 0x41, count: 700)) }
    }

    @Test func svgHasNoHashSoADataURIKeepsItWhole() throws {
        let svg = try QRCode(bytes: Array("otpauth://totp/x".utf8)).svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(!svg.contains("#"))
        #expect(svg.hasSuffix("</svg>"))
    }
}
