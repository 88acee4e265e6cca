import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// A clock that moves only when a test tells it to.
///
/// Sleepers wake in deadline order as ``advance(by:)`` passes their
/// deadlines, so a test can run thirty days of refreshes in milliseconds.
///
/// - Important: `now` must be readable synchronously (it is a protocol
///   requirement every expiry check uses), so the state sits behind a lock
///   rather than in an actor.
public final class ManualClock: SessionClock, @unchecked Sendable {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current: Date
    private var sleepers: [Sleeper] = []
    private var nextID: UInt64 = 0

    /// Creates a clock reading `start` (default: 2026-01-01T00:00:00Z).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        self.current = start
    }

    public var now: Date {
        lock.withLock { current }
    }

    /// How many tasks are sleeping on this clock right now.
    public var sleeperCount: Int {
        lock.withLock { sleepers.count }
    }

    /// The earliest deadline anyone is sleeping until.
    public var nextDeadline: Date? {
        lock.withLock { sleepers.map(\.deadline).min() }
    }

    public func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if deadline <= current { return true }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled: Sleeper? = lock.withLock {
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `interval` seconds, waking each sleeper at its
    /// own deadline and letting woken tasks run before moving on.
    public func advance(by interval: TimeInterval) async {
        let target = now.addingTimeInterval(interval)
        await advance(to: target)
    }

    /// Moves time forward to `target` (never backwards), as ``advance(by:)``.
    public func advance(to target: Date) async {
        while true {
            let due: Sleeper? = lock.withLock {
                guard let index = sleepers.indices.min(by: { sleepers[$0].deadline < sleepers[$1].deadline }),
                    sleepers[index].deadline <= target
                else { return nil }
                let sleeper = sleepers.remove(at: index)
                if sleeper.deadline > current { current = sleeper.deadline }
                return sleeper
            }
            guard let due else { break }
            due.continuation.resume()
            await Self.settle()
        }
        lock.withLock { if target > current { current = target } }
        await Self.settle()
    }

    /// Jumps the wall clock without waking anyone, as a device clock change would.
    public func set(to date: Date) {
        lock.withLock { current = date }
    }

    /// Waits (by yielding, never sleeping) until at least `count` tasks sleep on this clock.
    ///
    /// - Returns: `false` if that did not happen within `maxYields` yields.
    @discardableResult
    public func waitForSleepers(count: Int = 1, maxYields: Int = 100_000) async -> Bool {
        for _ in 0..<maxYields {
            if sleeperCount >= count { return true }
            await Task.yield()
        }
        return sleeperCount >= count
    }

    /// Gives woken tasks a chance to run to their next suspension point.
    private static func settle() async {
        for _ in 0..<64 { await Task.yield() }
    }
}
