import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fans states and events out to every subscriber, each with its own stream.
///
/// A lock rather than an actor: subscribing must be synchronous so
/// `client.states` is a plain (nonisolated) property, and a new subscriber
/// must get the current state first without a gap.
///
/// Two locks, because nothing may be yielded under `lock`: a yield resumes
/// the subscriber's task and takes the concurrency runtime's lock on that
/// task, while cancelling the task holds that same runtime lock and runs the
/// stream's termination handler, which takes `lock` — a lock-order deadlock
/// that froze whole test processes. `delivery` keeps deliveries in order;
/// no termination handler takes it.
final class StateBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    private let delivery = NSLock()
    // `restoring` until the client has read its store: never `signedOut` before it knows.
    private var state: SessionState = .restoring
    private var stateContinuations: [UUID: AsyncStream<SessionState>.Continuation] = [:]
    private var eventContinuations: [UUID: AsyncStream<SessionEvent>.Continuation] = [:]
    // Event subscribers that came while `restoring` and still wait for their `initialSession`.
    private var awaitingInitial: Set<UUID> = []
    private var finished = false
    private var ending: SessionError?

    var current: SessionState { lock.withLock { state } }

    /// The error the last `expired` state was set with (its kind: ended, or the account suspended).
    var endingError: SessionError? { lock.withLock { ending } }

    /// Sets `expired` and remembers the error it came from, before any subscriber sees the state.
    func setExpired(by error: SessionError) {
        lock.withLock { ending = error }
        set(.expired(reason: error.message))
    }

    func states() -> AsyncStream<SessionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionState.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        delivery.withLock {
            let (first, isFinished): (SessionState, Bool) = lock.withLock {
                if !finished { stateContinuations[id] = continuation }
                return (state, finished)
            }
            continuation.yield(first)
            if isFinished { continuation.finish() }
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.stateContinuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// A new event stream. Its first event is `initialSession`: at once when
    /// the launch read has ended, else when it ends (as supabase-swift's
    /// `initialSession`), so an app routing on events learns where it stands.
    func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        delivery.withLock {
            let (known, isFinished): (SessionState?, Bool) = lock.withLock {
                if !finished {
                    eventContinuations[id] = continuation
                    if state == .restoring { awaitingInitial.insert(id) }
                }
                return (state == .restoring ? nil : state, finished)
            }
            if let known, !isFinished { continuation.yield(.initialSession(known.session)) }
            if isFinished { continuation.finish() }
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock {
                _ = self?.eventContinuations.removeValue(forKey: id)
                _ = self?.awaitingInitial.remove(id)
            }
        }
        return stream
    }

    /// Sets the state; publishes only when it changed.
    func set(_ newState: SessionState) {
        delivery.withLock {
            let (subscribers, initial): ([AsyncStream<SessionState>.Continuation], [AsyncStream<SessionEvent>.Continuation]) =
                lock.withLock {
                    guard newState != state else { return ([], []) }
                    state = newState
                    guard newState != .restoring, !awaitingInitial.isEmpty else { return (Array(stateContinuations.values), []) }
                    let waiting = awaitingInitial.compactMap { eventContinuations[$0] }
                    awaitingInitial = []
                    return (Array(stateContinuations.values), waiting)
                }
            for continuation in initial { continuation.yield(.initialSession(newState.session)) }
            for continuation in subscribers { continuation.yield(newState) }
        }
    }

    func publish(_ event: SessionEvent) {
        delivery.withLock {
            let subscribers = lock.withLock { Array(eventContinuations.values) }
            for continuation in subscribers { continuation.yield(event) }
        }
    }

    func finish() {
        let continuations: ([AsyncStream<SessionState>.Continuation], [AsyncStream<SessionEvent>.Continuation]) =
            lock.withLock {
                finished = true
                defer {
                    stateContinuations = [:]
                    eventContinuations = [:]
                    awaitingInitial = []
                }
                return (Array(stateContinuations.values), Array(eventContinuations.values))
            }
        continuations.0.forEach { $0.finish() }
        continuations.1.forEach { $0.finish() }
    }
}
