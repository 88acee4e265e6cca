/// The module grid of a QR code while it is drawn: function patterns, data,
/// mask and format information (ISO/IEC 18004 §7.7-§7.9).
struct QRGrid: Sendable {
    let version: QRVersion
    /// `modules[y][x]`: true for dark.
    var modules: [[Bool]]
    /// Modules the data and mask never touch.
    var isFunction: [[Bool]]

    var size: Int { version.size }

    init(version: QRVersion) {
        self.version = version
        modules = Array(repeating: Array(repeating: false, count: version.size), count: version.size)
        isFunction = modules
    }

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y][x] = dark
        isFunction[y][x] = true
    }

    /// Finder, separator, timing and alignment patterns, the version information,
    /// and the format area reserved (drawn for real once the mask is known).
    mutating func drawFunctionPatterns() {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { drawFinder(centerX: x, centerY: y) }
        let positions = version.alignmentPositions
        for (i, ay) in positions.enumerated() {
            for (j, ax) in positions.enumerated() {
                // The three corners that hold finder patterns get none.
                let overlapsFinder = (i == 0 && j == 0) || (i == 0 && j == positions.count - 1) || (i == positions.count - 1 && j == 0)
                if !overlapsFinder { drawAlignment(centerX: ax, centerY: ay) }
            }
        }
        drawFormatBits(mask: 0)
        drawVersion()
    }

    /// A finder pattern and its light separator, clipped to the grid.
    private mutating func drawFinder(centerX: Int, centerY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let (x, y) = (centerX + dx, centerY + dy)
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let distance = max(abs(dx), abs(dy))
                set(x, y, distance != 2 && distance != 4)
            }
        }
    }

    private mutating func drawAlignment(centerX: Int, centerY: Int) {
        for dy in -2...2 {
            for dx in -2...2 { set(centerX + dx, centerY + dy, max(abs(dx), abs(dy)) != 1) }
        }
    }

    /// The 15 format bits (level and mask, BCH-protected, masked with 0x5412) in both copies, and the dark module.
    mutating func drawFormatBits(mask: Int) {
        let bits = Self.formatBits(mask: mask)
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    /// The format information for level M and `mask` (§7.9.1).
    static func formatBits(mask: Int) -> Int {
        let data = Int(QRVersion.levelBits) << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        return (data << 10 | remainder) ^ 0x5412
    }

    /// The 18 version bits of `number`: 6 bits of version, 12 of BCH code (§7.10).
    static func versionBits(_ number: Int) -> Int {
        var remainder = number
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        return number << 12 | remainder
    }

    /// The version information in its two blocks, from version 7 on.
    private mutating func drawVersion() {
        guard version.number >= 7 else { return }
        let bits = Self.versionBits(version.number)
        for i in 0..<18 {
            let dark = (bits >> i) & 1 == 1
            let (a, b) = (size - 11 + i % 3, i / 3)
            set(a, b, dark)
            set(b, a, dark)
        }
    }

    /// Lays the codewords in the two-module-wide zigzag from the bottom right,
    /// skipping function modules and the vertical timing column (§7.7.3).
    mutating func place(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    guard !isFunction[y][x], index < codewords.count * 8 else { continue }
                    modules[y][x] = (codewords[index >> 3] >> (7 - UInt8(index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    /// Flips the data modules where `mask`'s condition holds (§7.8.2).
    mutating func apply(mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y][x] && Self.masks(mask, x: x, y: y) {
                modules[y][x].toggle()
            }
        }
    }

    static func masks(_ mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (x / 3 + y / 2) % 2 == 0
        case 5: x * y % 2 + x * y % 3 == 0
        case 6: (x * y % 2 + x * y % 3) % 2 == 0
        default: ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }
}
