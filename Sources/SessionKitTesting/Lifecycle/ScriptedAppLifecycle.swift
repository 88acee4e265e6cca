import Foundation
import SessionKit

/// App lifecycle events a test sends: the app becoming active after an hour
/// suspended, or going to the background with a session not saved yet.
///
/// As UIKit does, every subscriber gets the events posted after it
/// subscribed, and none of those before.
///
/// ```swift
/// let lifecycle = ScriptedAppLifecycle()
/// let env = await SessionTestEnvironment.make { $0.appLifecycle = lifecycle }
/// try await env.signIn()
/// _ = try await env.client.restore()          // starts the observation
/// await lifecycle.waitForSubscribers()
/// env.expireAccessToken()                     // suspended for an hour
/// lifecycle.send(.didBecomeActive)            // the client refreshes by itself
/// ```
public final class ScriptedAppLifecycle: AppLifecycleEvents, @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<AppLifecycleEvent>.Continuation] = [:]

    public init() {}

    public func events() async -> AsyncStream<AppLifecycleEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AppLifecycleEvent.self)
        let id = UUID()
        lock.withLock { continuations[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many streams are open now (a client observing holds one).
    public var subscriberCount: Int { lock.withLock { continuations.count } }

    /// Posts `event` to every open stream.
    public func send(_ event: AppLifecycleEvent) {
        let open = lock.withLock { Array(continuations.values) }
        for continuation in open { continuation.yield(event) }
    }

    /// Waits (by yielding, never sleeping) until exactly `count` streams are open.
    ///
    /// - Returns: `false` if that did not happen within `maxYields` yields.
    @discardableResult
    public func waitForSubscribers(count: Int = 1, maxYields: Int = 100_000) async -> Bool {
        for _ in 0..<maxYields {
            if subscriberCount == count { return true }
            await Task.yield()
        }
        return subscriberCount == count
    }
}
