import Foundation

/// One measured figure, its goal, and whether the goal is met.
struct Row: Sendable {
    let item: String
    let figure: String
    let value: String
    let goal: String
    /// `nil` when the figure is informational (no goal).
    let met: Bool?
}

/// Collects rows as the benchmarks run and prints them as a table.
actor Report {
    private(set) var rows: [Row] = []

    func add(_ item: String, _ figure: String, _ value: String, goal: String = "—", met: Bool? = nil) {
        let row = Row(item: item, figure: figure, value: value, goal: goal, met: met)
        rows.append(row)
        let mark = row.met.map { $0 ? "met" : "MISSED" } ?? "info"
        Console.line("  [\(mark)] \(item) · \(figure): \(value)  (goal \(goal))")
    }

    /// The table in Markdown, as docs/BENCHMARKS.md quotes it.
    func markdown() -> String {
        var lines = ["| # | Figure | Measured | Goal | Met |", "|---|---|---|---|---|"]
        for row in rows {
            let met = row.met.map { $0 ? "yes" : "**no**" } ?? "—"
            lines.append("| \(row.item) | \(row.figure) | \(row.value) | \(row.goal) | \(met) |")
        }
        return lines.joined(separator: "\n")
    }
}

enum Format {
    static func ratio(_ value: Double) -> String { String(format: "%.3f", value) }
    static func rate(_ value: Double) -> String { String(format: "%.0f/s", value) }
    static func micros(_ seconds: Double) -> String { String(format: "%.1f µs", seconds * 1e6) }
    static func nanos(_ seconds: Double) -> String { String(format: "%.0f ns", seconds * 1e9) }
    static func millis(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1e3) }
    static func mebibytes(_ bytes: Double) -> String { String(format: "%.1f MiB", bytes / 1_048_576) }
    static func kibibytes(_ bytes: Double) -> String { String(format: "%.1f KiB", bytes / 1024) }
}

/// Unbuffered output, so a piped run (`| tee`) shows progress as it goes.
enum Console {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
