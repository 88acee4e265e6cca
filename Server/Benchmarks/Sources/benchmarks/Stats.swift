import Foundation
import SessionSimulation

enum Stats {
    /// The `p`-th percentile (0…1) of `samples`, nearest rank.
    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// The middle value; the mean of the two middle ones for an even count,
    /// so a median of 10 repetitions does not lean towards either half.
    static func median(_ samples: [Double]) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// A 95 % percentile-bootstrap interval for the median of `samples`.
    ///
    /// Bootstrap rather than a t-interval: per-repetition ratios on a shared
    /// machine are skewed (a burst of someone else's build slows one arm of
    /// one repetition), and the bootstrap assumes no distribution. The seed
    /// is fixed so the same samples always print the same interval.
    static func bootstrapMedianInterval(_ samples: [Double], resamples: Int = 4_000) -> (low: Double, high: Double) {
        guard samples.count > 1 else { return (samples.first ?? .nan, samples.first ?? .nan) }
        var generator = SplitMix64(seed: 0x5e55_104b)
        var medians: [Double] = []
        medians.reserveCapacity(resamples)
        for _ in 0..<resamples {
            let resample = samples.indices.map { _ in samples[Int.random(in: samples.indices, using: &generator)] }
            medians.append(median(resample))
        }
        return (percentile(medians, 0.025), percentile(medians, 0.975))
    }
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
