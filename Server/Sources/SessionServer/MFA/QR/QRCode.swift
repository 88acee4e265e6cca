/// A QR code (ISO/IEC 18004) of some bytes, in byte mode at error-correction
/// level M: what the TOTP enrolment's `qr_code` draws, so an authenticator
/// app can scan the `otpauth://` URI (docs/MFA.md, "The QR code").
///
/// Small on purpose: one mode, one level, versions 1 to 20. The mask is
/// chosen by the standard's penalty rules.
struct QRCode: Sendable {
    let version: QRVersion
    /// The mask pattern used (0-7), written in the format information.
    let mask: Int
    /// `modules[y][x]`: true for a dark module.
    let modules: [[Bool]]

    var size: Int { version.size }

    /// The code for `bytes`.
    ///
    /// - Throws: ``QRCodeError/tooLong(_:)`` when even version 20 cannot hold them.
    init(bytes: [UInt8]) throws {
        guard let version = QRVersion.smallest(holding: bytes.count) else { throw QRCodeError.tooLong(bytes.count) }
        let codewords = Self.interleave(Self.dataCodewords(bytes, version: version), version: version)
        var grid = QRGrid(version: version)
        grid.drawFunctionPatterns()
        grid.place(codewords)
        // Each mask drawn with its format bits and scored; the lowest penalty wins (the first on a tie).
        var chosen = (mask: 0, penalty: Int.max, grid: grid)
        for mask in 0..<8 {
            var candidate = grid
            candidate.apply(mask: mask)
            candidate.drawFormatBits(mask: mask)
            let penalty = candidate.penalty()
            if penalty < chosen.penalty { chosen = (mask, penalty, candidate) }
        }
        self.version = version
        self.mask = chosen.mask
        self.modules = chosen.grid.modules
    }

    /// The data codewords: mode, count, the bytes, terminator and pad bytes (§7.4).
    static func dataCodewords(_ bytes: [UInt8], version: QRVersion) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(UInt(bytes.count), count: version.countBits)
        for byte in bytes { bits.append(UInt(byte), count: 8) }
        let capacity = version.dataCodewords * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < version.dataCodewords {
            codewords.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return codewords
    }

    /// Splits the data into blocks, adds each block's error correction, and
    /// interleaves them column by column (§7.6).
    static func interleave(_ data: [UInt8], version: QRVersion) -> [UInt8] {
        let divisor = ReedSolomon.divisor(degree: version.ecPerBlock)
        var blocks: [[UInt8]] = []
        var corrections: [[UInt8]] = []
        var start = 0
        for length in version.blocks {
            let block = Array(data[start..<(start + length)])
            blocks.append(block)
            corrections.append(ReedSolomon.remainder(block, divisor: divisor))
            start += length
        }
        var result: [UInt8] = []
        for i in 0..<(version.blocks.max() ?? 0) {
            for block in blocks where i < block.count { result.append(block[i]) }
        }
        for i in 0..<version.ecPerBlock {
            for correction in corrections { result.append(correction[i]) }
        }
        return result
    }
}

/// Why a QR code could not be made.
struct QRCodeError: Error, Sendable, Hashable, CustomStringConvertible {
    let description: String

    /// More bytes than version 20 at level M holds.
    static func tooLong(_ count: Int) -> QRCodeError {
        QRCodeError(description: "\(count) bytes do not fit in a QR code of version 20 or below at level M.")
    }
}

/// Bits appended most significant first, read back as bytes.
struct BitBuffer: Sendable {
    private(set) var bits: [Bool] = []
    var count: Int { bits.count }

    mutating func append(_ value: UInt, count: Int) {
        guard count > 0 else { return }
        for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> UInt(i)) & 1 == 1) }
    }

    var bytes: [UInt8] {
        var result: [UInt8] = []
        var byte: UInt8 = 0
        for (index, bit) in bits.enumerated() {
            byte = byte << 1 | (bit ? 1 : 0)
            if index % 8 == 7 {
                result.append(byte)
                byte = 0
            }
        }
        // A last partial byte, padded with zeros on the right.
        if bits.count % 8 != 0 { result.append(byte << UInt8(8 - bits.count % 8)) }
        return result
    }
}
