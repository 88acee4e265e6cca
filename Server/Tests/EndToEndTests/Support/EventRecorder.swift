import Foundation
import SessionKit

/// Collects a client's events from the moment it is created.
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [SessionEvent] = []
    private var task: Task<Void, Never>?

    init(_ client: SessionClient) {
        // The stream is created here, before the test acts, so nothing is missed.
        let stream = client.events
        task = Task { [weak self] in
            for await event in stream { self?.append(event) }
        }
    }

    deinit { task?.cancel() }

    private func append(_ event: SessionEvent) {
        lock.withLock { recorded.append(event) }
    }

    var events: [SessionEvent] { lock.withLock { recorded } }

    /// How many `sessionExpired` events arrived.
    var expiredCount: Int {
        events.filter { if case .sessionExpired = $0 { true } else { false } }.count
    }

    /// Yields until `predicate` holds for the recorded events (never sleeps).
    func waitUntil(maxYields: Int = 200_000, _ predicate: ([SessionEvent]) -> Bool) async -> Bool {
        for _ in 0..<maxYields {
            if predicate(events) { return true }
            await Task.yield()
        }
        return predicate(events)
    }
}
