import Foundation

/// One measured figure, its goal, and whether the goal is met.
///
/// `figure` names what is measured and never holds a measurement, so two
/// runs (`Benchmarks/run --compare`) can be matched by it; the numbers that
/// explain a figure go in `detail`.
struct Row: Sendable {
    let item: String
    let figure: String
    let value: String
    let goal: String
    /// `nil` when the figure is informational (no goal).
    let met: Bool?
    let detail: String
}

/// Collects rows as the benchmarks run and prints them as a table.
actor Report {
    private(set) var rows: [Row] = []

    func add(_ item: String, _ figure: String, _ value: String, goal: String = "—", met: Bool? = nil, detail: String = "") {
        let row = Row(item: item, figure: figure, value: value, goal: goal, met: met, detail: detail)
        rows.append(row)
        let mark = row.met.map { $0 ? "met" : "MISSED" } ?? "info"
        Console.line("  [\(mark)] \(item) · \(figure): \(value)  (goal \(goal))\(detail.isEmpty ? "" : "  — \(detail)")")
    }

    /// A figure over repetitions, judged by its median.
    func add(
        _ item: String, _ figure: String, _ spread: Spread, goal: Goal? = nil, detail: String = "",
        interval: Bool = false, format: (Double) -> String = Format.ratio
    ) {
        let value = interval ? spread.formattedWithInterval(format) : spread.formatted(format)
        add(
            item, figure, value, goal: goal?.description ?? "—", met: goal.map { $0.isMet(by: spread.median) && spread.failures == 0 },
            detail: detail)
    }

    /// The table in Markdown, as docs/BENCHMARKS.md quotes it.
    func markdown() -> String {
        var lines = ["| # | Figure | Measured | Goal | Met | Detail |", "|---|---|---|---|---|---|"]
        for row in rows {
            let met = row.met.map { $0 ? "yes" : "**no**" } ?? "—"
            let cells = [row.item, row.figure, row.value, row.goal, met, row.detail.isEmpty ? "—" : row.detail]
            lines.append("| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
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
    /// A goal's threshold as written: `1.05`, `0.9`, `3`.
    static func compact(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }
}

/// Unbuffered output, so a piped run (`| tee`) shows progress as it goes.
enum Console {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
