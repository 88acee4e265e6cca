import Foundation
import NIOConcurrencyHelpers
import SessionCore

/// Fixed-window counters in this process's memory, on the injected clock.
///
/// Memory is fixed and each request does O(1) work, however many distinct
/// keys arrive (a flood of IPv6 /64s or made-up emails cannot grow it): the
/// counters form a count-min sketch, two rows of `width` slots, each slot a
/// window start and a count. A key reads the smaller of its two slots; a
/// count is raised only where it equals that minimum (conservative update).
/// Two keys share both slots only by a rare collision, and then each may be
/// limited early, never late: a limit is never exceeded.
///
/// A lock, not an actor: every gateway request asks, and the work is a few
/// array reads, far less than an actor call's executor hops.
public final class RateLimiter: RateLimiting {
    /// Compatibility name for the decision type.
    public typealias Decision = RateLimitDecision

    private static let rows = 2
    private let limit: Int
    private let window: TimeInterval
    private let clock: any SessionClock
    private let width: Int
    /// Row-major: slot `row * width + column`.
    fileprivate struct Counters {
        var starts: [Double]
        var counts: [UInt32]
    }
    private let counters: NIOLockedValueBox<Counters>
    /// Per-process random seeds, so nobody outside can aim keys at one slot.
    private let seeds: [Int]

    /// - Parameters:
    ///   - limit: requests allowed per window and key.
    ///   - window: window length in seconds; a key's window starts with its first request.
    ///   - width: slots per row (rounded up to a power of two); memory is `2 × width × 12` bytes.
    public init(limit: Int, window: TimeInterval = 60, clock: any SessionClock, width: Int = 16_384) {
        self.limit = limit
        self.window = window
        self.clock = clock
        var size = 1
        while size < max(width, 2) { size <<= 1 }
        self.width = size
        counters = NIOLockedValueBox(
            Counters(
                starts: Array(repeating: -.infinity, count: Self.rows * size),
                counts: Array(repeating: 0, count: Self.rows * size)))
        seeds = (0..<Self.rows).map { _ in Int.random(in: .min ... .max) }
    }

    /// Slots held: fixed at creation.
    public var slotCount: Int { counters.withLockedValue { $0.counts.count } }

    public func attempt(_ key: String) -> RateLimitDecision {
        let now = clock.now.timeIntervalSince1970
        // Two rows, unrolled: no per-request allocation on this hot path.
        let (first, second) = (slot(row: 0, key), slot(row: 1, key))
        let (limit, window) = (UInt32(clamping: self.limit), self.window)
        return counters.withLockedValue { counters in
            let (firstCount, secondCount) = (
                counters.liveCount(first, now: now, window: window), counters.liveCount(second, now: now, window: window)
            )
            let estimate = min(firstCount ?? 0, secondCount ?? 0)
            guard estimate < limit else {
                // Both slots are live and full; the window to wait out is the one giving the estimate.
                let start =
                    firstCount == estimate
                    ? counters.starts[first] : secondCount == estimate ? counters.starts[second] : now
                return .limited(retryAfter: max(1, Int((window - (now - start)).rounded(.up))))
            }
            counters.raise(first, liveCount: firstCount, estimate: estimate, now: now)
            counters.raise(second, liveCount: secondCount, estimate: estimate, now: now)
            return .allowed
        }
    }

    private func slot(row: Int, _ key: String) -> Int {
        var hasher = Hasher()
        hasher.combine(seeds[row])
        hasher.combine(key)
        return row * width + (hasher.finalize() & (width - 1))
    }

}

extension RateLimiter.Counters {
    /// The slot's count, or `nil` when its window ended or starts after now (the clock stepped back).
    func liveCount(_ slot: Int, now: Double, window: TimeInterval) -> UInt32? {
        starts[slot] <= now && now - starts[slot] < window ? counts[slot] : nil
    }

    /// Counts one request: a dead slot starts a window; a live one rises only
    /// where it equals the estimate (conservative update).
    mutating func raise(_ slot: Int, liveCount: UInt32?, estimate: UInt32, now: Double) {
        if liveCount == nil {
            starts[slot] = now
            counts[slot] = 1
        } else if liveCount == estimate {
            counts[slot] += 1
        }
    }
}
