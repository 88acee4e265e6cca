import Foundation
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
public actor RateLimiter: RateLimiting {
    /// Compatibility name for the decision type.
    public typealias Decision = RateLimitDecision

    private static let rows = 2
    private let limit: Int
    private let window: TimeInterval
    private let clock: any SessionClock
    private let width: Int
    /// Row-major: slot `row * width + column`.
    private var starts: [Double]
    private var counts: [UInt32]
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
        starts = Array(repeating: -.infinity, count: Self.rows * size)
        counts = Array(repeating: 0, count: Self.rows * size)
        seeds = (0..<Self.rows).map { _ in Int.random(in: .min ... .max) }
    }

    /// Slots held: fixed at creation.
    public var slotCount: Int { counts.count }

    public func attempt(_ key: String) -> RateLimitDecision {
        let now = clock.now.timeIntervalSince1970
        var slots = [Int](repeating: 0, count: Self.rows)
        var estimate = UInt32.max
        var oldestLiveStart = now
        for row in 0..<Self.rows {
            var hasher = Hasher()
            hasher.combine(seeds[row])
            hasher.combine(key)
            let slot = row * width + (hasher.finalize() & (width - 1))
            slots[row] = slot
            // A window that ended, or that starts after now (the clock stepped back), counts nothing.
            let live = starts[slot] <= now && now - starts[slot] < window
            let count = live ? counts[slot] : 0
            if count < estimate {
                estimate = count
                oldestLiveStart = live ? starts[slot] : now
            }
        }
        guard estimate < UInt32(clamping: limit) else {
            let remaining = window - (now - oldestLiveStart)
            return .limited(retryAfter: max(1, Int(remaining.rounded(.up))))
        }
        for slot in slots {
            let live = starts[slot] <= now && now - starts[slot] < window
            if !live {
                starts[slot] = now
                counts[slot] = 1
            } else if counts[slot] == estimate {
                counts[slot] += 1
            }
        }
        return .allowed
    }
}
