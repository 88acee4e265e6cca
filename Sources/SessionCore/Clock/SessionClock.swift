import Foundation

/// The source of wall-clock time for every expiry decision in SessionKit.
///
/// Client and server both take one, so tests can run thirty simulated days in
/// seconds by advancing a manual clock instead of sleeping. Expiries are
/// compared against ``now``; waiting (proactive refresh, backoff) goes
/// through ``sleep(until:)`` so a manual clock can wake sleepers when it
/// advances.
public protocol SessionClock: Sendable {
    /// The current wall-clock time.
    var now: Date { get }

    /// Suspends until `deadline` has been reached on this clock.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled.
    func sleep(until deadline: Date) async throws
}

extension SessionClock {
    /// Suspends for `interval` seconds of this clock's time.
    public func sleep(for interval: TimeInterval) async throws {
        try await sleep(until: now.addingTimeInterval(interval))
    }
}

/// The real clock: system wall time, sleeping on the monotonic clock.
public struct SystemClock: SessionClock {
    public init() {}

    public var now: Date { Date.now }

    public func sleep(until deadline: Date) async throws {
        let interval = deadline.timeIntervalSince(now)
        guard interval > 0 else {
            try Task.checkCancellation()
            return
        }
        // The monotonic clock does the waiting so a wall-clock jump cannot
        // stretch a backoff; the caller re-reads `now` when it wakes.
        try await ContinuousClock().sleep(for: .milliseconds(Int64((interval * 1000).rounded(.up))))
    }
}
