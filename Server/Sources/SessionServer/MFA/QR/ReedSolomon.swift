/// Reed-Solomon error correction over GF(2^8) with the QR code's polynomial
/// x^8 + x^4 + x^3 + x^2 + 1 (ISO/IEC 18004 §7.5.2).
enum ReedSolomon {
    /// The product of two field elements (Russian-peasant multiplication, reduced by 0x11D).
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z: UInt16 = 0
        for i in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= UInt16((y >> UInt8(i)) & 1) * UInt16(x)
        }
        return UInt8(z & 0xFF)
    }

    /// The generator polynomial of `degree` (coefficients highest first, the leading 1 left out):
    /// the product of (x - 2^i) for i below `degree`.
    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                result[j] = multiply(result[j], root)
                if j + 1 < degree { result[j] ^= result[j + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    /// The error-correction codewords of `data`: the remainder of its division by `divisor`.
    static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for i in 0..<result.count { result[i] ^= multiply(divisor[i], factor) }
        }
        return result
    }
}
