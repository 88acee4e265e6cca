import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where backoff jitter comes from: random in production, seeded or fixed in tests.
public struct JitterSource: Sendable {
    private let next: @Sendable () -> Double

    /// - Parameter next: returns a value in `0..<1` each call.
    public init(_ next: @escaping @Sendable () -> Double) {
        self.next = next
    }

    /// A value in `0..<1` (clamped, whatever the closure returned).
    public func unit() -> Double {
        let value = next()
        guard value.isFinite else { return 0 }
        return min(max(value, 0), 0.999_999)
    }

    /// The system's random generator.
    public static let system = JitterSource { Double.random(in: 0..<1) }

    /// Always `value`: `.fixed(1)` makes every delay its ceiling, `.fixed(0)` zero.
    public static func fixed(_ value: Double) -> JitterSource { JitterSource { value } }

    /// A reproducible sequence from `seed` (SplitMix64).
    public static func seeded(_ seed: UInt64) -> JitterSource {
        let state = SeededState(seed)
        return JitterSource { state.next() }
    }
}

/// SplitMix64 behind a lock, so a seeded source can be shared across tasks.
private final class SeededState: @unchecked Sendable {
    private let lock = NSLock()
    private var state: UInt64

    init(_ seed: UInt64) { state = seed }

    func next() -> Double {
        lock.withLock {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z = z ^ (z >> 31)
            return Double(z >> 11) / Double(1 << 53)
        }
    }
}
