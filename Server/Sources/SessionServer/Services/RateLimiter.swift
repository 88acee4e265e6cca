import Foundation
import SessionCore

/// Fixed-window counters per key (a client IP, an email), on the injected clock.
public actor RateLimiter {
    /// The answer for one request.
    public enum Decision: Sendable, Equatable {
        case allowed
        /// Over the limit; retry after this many seconds.
        case limited(retryAfter: Int)
    }

    private let limit: Int
    private let window: TimeInterval
    private let clock: any SessionClock
    private var windows: [String: (start: Date, count: Int)] = [:]

    /// - Parameters:
    ///   - limit: requests allowed per window and key.
    ///   - window: window length in seconds.
    public init(limit: Int, window: TimeInterval = 60, clock: any SessionClock) {
        self.limit = limit
        self.window = window
        self.clock = clock
    }

    /// Counts one request for `key`.
    public func attempt(_ key: String) -> Decision {
        let now = clock.now
        if windows.count > 50_000 {
            // Forget finished windows so a flood of distinct keys cannot grow memory forever.
            windows = windows.filter { now.timeIntervalSince($0.value.start) < window }
        }
        var entry = windows[key] ?? (now, 0)
        if now.timeIntervalSince(entry.start) >= window || now < entry.start { entry = (now, 0) }
        guard entry.count < limit else {
            let remaining = window - now.timeIntervalSince(entry.start)
            return .limited(retryAfter: max(1, Int(remaining.rounded(.up))))
        }
        entry.count += 1
        windows[key] = entry
        return .allowed
    }
}
