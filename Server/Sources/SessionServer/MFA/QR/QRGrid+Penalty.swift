extension QRGrid {
    /// The standard's penalty score (§7.8.3): runs of one colour, 2×2 blocks,
    /// finder-like patterns and imbalance. The mask with the lowest is used.
    func penalty() -> Int {
        var score = 0
        let columns = (0..<size).map { x in (0..<size).map { modules[$0][x] } }
        for line in modules + columns {
            score += Self.runPenalty(line) + Self.finderLikePenalty(line)
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = modules[y][x]
                if modules[y][x + 1] == colour, modules[y + 1][x] == colour, modules[y + 1][x + 1] == colour { score += 3 }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        let total = size * size
        // Each 5 % away from half dark costs 10.
        score += (abs(dark * 20 - total * 10) + total - 1) / total * 10 - 10
        return score
    }

    /// Rule 1: 3 for a run of five of one colour, 1 more for each module beyond.
    private static func runPenalty(_ line: [Bool]) -> Int {
        var score = 0
        var run = 1
        for i in 1..<line.count {
            if line[i] == line[i - 1] {
                run += 1
            } else {
                if run >= 5 { score += run - 2 }
                run = 1
            }
        }
        if run >= 5 { score += run - 2 }
        return score
    }

    /// Rule 3: 40 for each 1:1:3:1:1 dark pattern with four light modules on one side (the edge counts as light).
    private static func finderLikePenalty(_ line: [Bool]) -> Int {
        let pattern: [Bool] = [true, false, true, true, true, false, true]
        var score = 0
        for start in 0...(line.count - pattern.count) where Array(line[start..<(start + 7)]) == pattern {
            let lightBefore = (1...4).allSatisfy { start - $0 < 0 || !line[start - $0] }
            let lightAfter = (0..<4).allSatisfy { start + 7 + $0 >= line.count || !line[start + 7 + $0] }
            if lightBefore || lightAfter { score += 40 }
        }
        return score
    }
}
