/// One QR code version at error-correction level M: its size and how its
/// codewords split into blocks (ISO/IEC 18004 Table 9).
struct QRVersion: Sendable, Hashable {
    let number: Int
    /// Error-correction codewords in each block.
    let ecPerBlock: Int
    /// Data codewords per block, shorter blocks first.
    let blocks: [Int]

    var size: Int { number * 4 + 17 }
    var dataCodewords: Int { blocks.reduce(0, +) }
    /// Bits of the byte-mode character count: 8 up to version 9, 16 from 10.
    var countBits: Int { number < 10 ? 8 : 16 }
    /// Bytes that fit in byte mode: the data codewords less the mode and count headers.
    var byteCapacity: Int { (dataCodewords * 8 - 4 - countBits) / 8 }

    /// Level M is the level authenticator codes usually travel at: 15 % of the symbol may be lost.
    static let levelBits: UInt = 0b00

    /// Versions 1 to 20 at level M: up to 666 bytes, far more than an `otpauth://` URI needs.
    /// Each row: error-correction codewords per block, then (blocks, data codewords) of the two groups.
    static let levelM: [QRVersion] = {
        let rows: [(Int, Int, Int, Int, Int)] = [
            (10, 1, 16, 0, 0), (16, 1, 28, 0, 0), (26, 1, 44, 0, 0), (18, 2, 32, 0, 0), (24, 2, 43, 0, 0),
            (16, 4, 27, 0, 0), (18, 4, 31, 0, 0), (22, 2, 38, 2, 39), (22, 3, 36, 2, 37), (26, 4, 43, 1, 44),
            (30, 1, 50, 4, 51), (22, 6, 36, 2, 37), (22, 8, 37, 1, 38), (24, 4, 40, 5, 41), (24, 5, 41, 5, 42),
            (28, 7, 45, 3, 46), (28, 10, 46, 1, 47), (26, 9, 43, 4, 44), (26, 3, 44, 11, 45), (26, 3, 41, 13, 42),
        ]
        var versions: [QRVersion] = []
        for (index, row) in rows.enumerated() {
            let blocks = [Int](repeating: row.2, count: row.1) + [Int](repeating: row.4, count: row.3)
            versions.append(QRVersion(number: index + 1, ecPerBlock: row.0, blocks: blocks))
        }
        return versions
    }()

    /// The smallest version that holds `byteCount` bytes; `nil` when none does.
    static func smallest(holding byteCount: Int) -> QRVersion? {
        levelM.first { $0.byteCapacity >= byteCount }
    }

    /// Where the centres of alignment patterns lie on each axis (ISO/IEC 18004 Annex E),
    /// spaced evenly from the far edge back toward 6.
    var alignmentPositions: [Int] {
        guard number > 1 else { return [] }
        let count = number / 7 + 2
        let step = (number * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var positions = [6]
        var position = size - 7
        for _ in 0..<(count - 1) {
            positions.insert(position, at: 1)
            position -= step
        }
        return positions
    }
}
