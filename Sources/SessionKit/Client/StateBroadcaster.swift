import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fans states and events out to every subscriber, each with its own stream.
///
/// A lock rather than an actor: subscribing must be synchronous so
/// `client.states` is a plain (nonisolated) property, and a new subscriber
/// must get the current state first without a gap.
final class StateBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    // `restoring` until the client has read its store: never `signedOut` before it knows.
    private var state: SessionState = .restoring
    private var stateContinuations: [UUID: AsyncStream<SessionState>.Continuation] = [:]
    private var eventContinuations: [UUID: AsyncStream<SessionEvent>.Continuation] = [:]
    private var finished = false

    var current: SessionState { lock.withLock { state } }

    func states() -> AsyncStream<SessionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionState.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        lock.withLock {
            continuation.yield(state)
            if finished {
                continuation.finish()
            } else {
                stateContinuations[id] = continuation
            }
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.stateContinuations.removeValue(forKey: id) }
        }
        return stream
    }

    func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        lock.withLock {
            if finished {
                continuation.finish()
            } else {
                eventContinuations[id] = continuation
            }
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.eventContinuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sets the state; publishes only when it changed.
    func set(_ newState: SessionState) {
        lock.withLock {
            guard newState != state else { return }
            state = newState
            for continuation in stateContinuations.values { continuation.yield(newState) }
        }
    }

    func publish(_ event: SessionEvent) {
        lock.withLock {
            for continuation in eventContinuations.values { continuation.yield(event) }
        }
    }

    func finish() {
        let continuations: ([AsyncStream<SessionState>.Continuation], [AsyncStream<SessionEvent>.Continuation]) =
            lock.withLock {
                finished = true
                defer {
                    stateContinuations = [:]
                    eventContinuations = [:]
                }
                return (Array(stateContinuations.values), Array(eventContinuations.values))
            }
        continuations.0.forEach { $0.finish() }
        continuations.1.forEach { $0.finish() }
    }
}
