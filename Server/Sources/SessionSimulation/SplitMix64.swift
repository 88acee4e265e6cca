import Foundation

/// A small seeded generator (SplitMix64), so a simulation is a function of its seed.
///
/// `SystemRandomNumberGenerator` cannot be seeded; Swift's default generator
/// is not specified to be stable across releases. SplitMix64 is tiny, fast and
/// passes BigCrush, which is all a fault plan needs.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed of life `index` in a run seeded `seed`: lives are independent,
    /// so one life can be replayed alone (`reliability --seed N --life K`).
    public static func lifeSeed(runSeed: UInt64, life index: Int) -> UInt64 {
        var mixer = SplitMix64(seed: runSeed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// A uniform value in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }

    /// Log-uniform in `range` (minutes to days are equally likely per decade).
    public mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        return Foundation.exp(uniform(Foundation.log(range.lowerBound)...Foundation.log(range.upperBound)))
    }

    /// Exponentially distributed with the given mean (the gaps of a Poisson process).
    public mutating func exponential(mean: Double) -> Double {
        -mean * Foundation.log(1 - uniform(0...0.999_999))
    }
}
