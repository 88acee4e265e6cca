import Foundation

enum Stats {
    /// The `p`-th percentile (0…1) of `samples`, nearest rank.
    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func median(_ samples: [Double]) -> Double { percentile(samples, 0.5) }
}

/// Wall-clock timing for the harness (never for decisions in the library).
enum Stopwatch {
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return (ContinuousClock.now - start).seconds
    }
}

extension Duration {
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

enum Machine {
    /// Resident set size of this process, from /proc/self/status.
    static func residentBytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return .nan }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kb = line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? .nan
            return kb * 1024
        }
        return .nan
    }

    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }
}

/// Sums the samples of one counter in a Prometheus text exposition.
enum PrometheusText {
    static func sum(_ name: String, in text: String) -> Double {
        text.split(separator: "\n")
            .filter { $0.hasPrefix(name) && !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0, +)
    }
}
