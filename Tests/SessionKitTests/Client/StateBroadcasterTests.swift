import Foundation
import SessionCore
import Testing

@testable import SessionKit

/// The broadcaster is called from the client's actor while subscribers come
/// and go on other threads.
@Suite(.timeLimit(.minutes(1)))
struct StateBroadcasterTests {
    /// A subscriber cancelled while a state is delivered to it. Yielding
    /// under the lock that the stream's termination handler also takes
    /// deadlocked against the concurrency runtime's own per-task lock
    /// (found in CI: a `set` resuming a consumer, a task group cancelling that
    /// consumer, each waiting for the other's lock).
    @Test func subscribersCancelledDuringDeliveryNeverDeadlock() async throws {
        let broadcaster = StateBroadcaster()
        let done = DoneFlag()
        let work = Task.detached {
            defer { done.set() }
            let stop = DoneFlag()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    var i = 0
                    while !stop.isSet {
                        i += 1
                        broadcaster.set(i.isMultiple(of: 2) ? .signedOut : .expired(reason: "\(i)"))
                        broadcaster.publish(.signedOut)
                    }
                }
                group.addTask {
                    defer { stop.set() }
                    for _ in 0..<300 {
                        // Subscribers waiting in `next()`, then cancelled while states arrive.
                        let consumers = (0..<8).map { n in
                            let states = broadcaster.states()
                            let events = broadcaster.events()
                            return Task {
                                if n.isMultiple(of: 2) {
                                    for await _ in states {}
                                } else {
                                    for await _ in events {}
                                }
                            }
                        }
                        try? await Task.sleep(for: .microseconds(200))
                        consumers.forEach { $0.cancel() }
                        for consumer in consumers { await consumer.value }
                    }
                }
            }
        }
        // A deadlock stops every thread of the concurrency pool, so neither
        // this test nor its time limit could report it: a plain thread does.
        Thread.detachNewThread {
            for _ in 0..<450 where !done.isSet { Thread.sleep(forTimeInterval: 0.1) }
            if !done.isSet { fatalError("StateBroadcasterTests: delivering states to cancelled subscribers deadlocked") }
        }
        let finished = await done.wait(upTo: .seconds(45))
        #expect(finished, "delivering states to subscribers being cancelled deadlocked")
        if finished { await work.value }
    }
}
