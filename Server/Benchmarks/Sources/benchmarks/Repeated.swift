import Foundation

/// Runs the arms of a comparison in interleaved repetitions, so that drift
/// and other people's builds on this shared machine land on every arm alike.
///
/// Repetition 1 runs the arms in order (A B), repetition 2 in reverse (B A),
/// and so on: an arm that always ran second would always inherit the first
/// one's warm caches, or its leftover load.
enum Repeated {
    /// The default number of repetitions behind every figure with a goal.
    static let repetitions = 5

    /// `arms` run `count` times; the result is indexed `[repetition][arm]`.
    static func rounds<T>(_ count: Int, _ arms: [() async throws -> T]) async throws -> [[T]] {
        var results: [[T]] = []
        for repetition in 0..<count {
            var row = [T?](repeating: nil, count: arms.count)
            let order = repetition.isMultiple(of: 2) ? Array(arms.indices) : arms.indices.reversed()
            for index in order { row[index] = try await arms[index]() }
            results.append(row.map { $0! })
        }
        return results
    }

    /// Two arms of different result types, interleaved: A B, B A, A B, …
    static func interleaved<A, B>(
        _ count: Int, a: () async throws -> A, b: () async throws -> B
    ) async throws -> [(a: A, b: B)] {
        var results: [(a: A, b: B)] = []
        for repetition in 0..<count {
            if repetition.isMultiple(of: 2) {
                let first = try await a()
                results.append((first, try await b()))
            } else {
                let second = try await b()
                results.append((try await a(), second))
            }
        }
        return results
    }

    /// `count` timings of each of two quick operations, alternating A B, B A
    /// sample by sample (starting with B when `startWithB`), so a burst of
    /// load lasting a few milliseconds lands on both paths alike.
    static func interleavedSamples(
        _ count: Int, startWithB: Bool = false, a: () async throws -> Double, b: () async throws -> Double
    ) async throws -> (a: [Double], b: [Double]) {
        var first: [Double] = []
        var second: [Double] = []
        first.reserveCapacity(count)
        second.reserveCapacity(count)
        for index in 0..<count {
            if index.isMultiple(of: 2) != startWithB {
                first.append(try await a())
                second.append(try await b())
            } else {
                second.append(try await b())
                first.append(try await a())
            }
        }
        return (first, second)
    }

    /// `count` timings of each of several quick operations, sample by sample
    /// in an order that rotates (A B C D, B C D A, …, starting `offset` along),
    /// so no arm always runs right after the same neighbour. Indexed `[arm][sample]`.
    static func rotatedSamples(
        _ count: Int, offset: Int = 0, arms: [() async throws -> Double]
    ) async throws -> [[Double]] {
        var samples = arms.map { _ in [Double]() }
        for index in samples.indices { samples[index].reserveCapacity(count) }
        for sample in 0..<count {
            for step in arms.indices {
                let arm = (sample + offset + step) % arms.count
                samples[arm].append(try await arms[arm]())
            }
        }
        return samples
    }

    /// The ratio A ÷ B of two rates (or times) measured `count` times, interleaved.
    static func ratio(
        _ count: Int = repetitions, a: () async throws -> Double, b: () async throws -> Double
    ) async throws -> (ratio: Spread, a: Spread, b: Spread) {
        let pairs = try await interleaved(count, a: a, b: b)
        return (Spread(pairs.map { $0.a / $0.b }), Spread(pairs.map(\.a)), Spread(pairs.map(\.b)))
    }
}

/// One figure over repetitions: its median, range and count.
struct Spread: Sendable {
    let values: [Double]

    init(_ values: [Double]) { self.values = values }

    /// Repetitions that failed (NaN: a wrk run with errors, say); the others make the figure.
    var failures: Int { values.filter(\.isNaN).count }
    private var valid: [Double] { values.filter { !$0.isNaN } }
    var median: Double { Stats.median(valid) }
    var min: Double { valid.min() ?? .nan }
    var max: Double { valid.max() ?? .nan }
    var count: Int { valid.count }
    /// Whether every repetition lies on one side of `value`.
    func excludes(_ value: Double) -> Bool { min > value || max < value }

    /// `0.912 (0.880–0.950, n=5)`: the median, then the per-repetition range.
    func formatted(_ format: (Double) -> String = Format.ratio) -> String {
        "\(format(median)) (\(format(min))–\(format(max)), n=\(count))" + failureNote
    }

    private var failureNote: String { failures == 0 ? "" : " [\(failures) failed]" }

    /// `1.012 (95% CI 0.990–1.030; range 0.970–1.050, n=10)`.
    func formattedWithInterval(_ format: (Double) -> String = Format.ratio) -> String {
        let interval = Stats.bootstrapMedianInterval(valid)
        return "\(format(median)) (95% CI \(format(interval.low))–\(format(interval.high)); "
            + "range \(format(min))–\(format(max)), n=\(count))" + failureNote
    }
}
