import Foundation
import SessionCore
import Testing

@testable import SessionKit
import SessionKitTesting

/// `accessToken()` with a valid token answers on the caller's executor: from
/// the main actor it never leaves it (a hop off the main queue and back cost
/// 20–25 µs a call on Linux, against 70 ns for the read itself; issue 32,
/// docs/BENCHMARKS.md). No timing here: the tests watch where the call ran.
@Suite struct AccessTokenExecutorTests {
    /// Whether the caller runs on the main dispatch queue, the main actor's
    /// executor on Linux. Not `Thread.isMainThread`: once the runtime calls
    /// `dispatchMain()`, a worker thread drains the main queue on Linux.
    enum MainQueue {
        static let key: DispatchSpecificKey<Bool> = {
            let key = DispatchSpecificKey<Bool>()
            DispatchQueue.main.setSpecific(key: key, value: true)
            return key
        }()

        static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
    }

    /// Records, when armed, whether each read of `now` ran on the main queue.
    /// The valid-token path reads the clock exactly once, on whatever
    /// executor `accessToken()` runs on, so the clock sees where it ran.
    final class ProbeClock: SessionClock, @unchecked Sendable {
        private let base: any SessionClock
        private let lock = NSLock()
        private var armed = false
        private var readsOnMainQueue: [Bool] = []

        init(base: any SessionClock) { self.base = base }

        var now: Date {
            let onMain = MainQueue.isCurrent
            lock.withLock { if armed { readsOnMainQueue.append(onMain) } }
            return base.now
        }

        func sleep(until deadline: Date) async throws { try await base.sleep(until: deadline) }

        func arm() { lock.withLock { armed = true; readsOnMainQueue = [] } }

        func disarm() -> [Bool] {
            lock.withLock {
                armed = false
                return readsOnMainQueue
            }
        }
    }

    /// A serial executor that counts the jobs enqueued on it: every return
    /// to it after a hop away is one more job.
    final class CountingExecutor: SerialExecutor, @unchecked Sendable {
        private let queue = DispatchQueue(label: "AccessTokenExecutorTests.counting")
        private let lock = NSLock()
        private var enqueued = 0

        var count: Int { lock.withLock { enqueued } }

        func enqueue(_ job: consuming ExecutorJob) {
            lock.withLock { enqueued += 1 }
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }

        func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
    }

    /// An app's own actor (a view model's, say) on the counting executor.
    actor Caller {
        let executor = CountingExecutor()
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        /// Jobs enqueued on this actor's executor while `calls` tokens were read.
        func enqueuesDuring(_ calls: Int, _ client: SessionClient) async throws -> (enqueues: Int, tokens: Set<String>) {
            let before = executor.count
            var tokens: Set<String> = []
            for _ in 0..<calls { tokens.insert(try await client.accessToken()) }
            return (executor.count - before, tokens)
        }
    }

    static func signedIn() async throws -> (WorldFixture, ProbeClock, Session) {
        var probe: ProbeClock?
        let f = await WorldFixture.make(.goTrue) { configuration in
            let clock = ProbeClock(base: configuration.clock)
            configuration.clock = clock
            probe = clock
        }
        let session = try await f.signIn()
        return (f, try #require(probe), session)
    }

    @MainActor @Test func aValidTokenIsReadOnTheMainActorWithoutLeavingIt() async throws {
        let (f, probe, session) = try await Self.signedIn()
        // The calls stay outside `#expect`, so nothing but the test itself is their caller.
        let first = try await f.client.accessToken()
        #expect(first == session.accessToken)
        #expect(MainQueue.isCurrent)
        probe.arm()
        for _ in 0..<20 {
            let token = try await f.client.accessToken()
            #expect(token == session.accessToken)
        }
        let reads = probe.disarm()
        // One clock read a call, each on the main queue: the call never left it.
        #expect(reads.count == 20)
        #expect(reads.allSatisfy { $0 }, "accessToken() read the clock off the main queue: it hopped off the main actor")
        await f.client.shutdown()
    }

    @Test func aValidTokenNeverLeavesTheCallersExecutor() async throws {
        let (f, _, session) = try await Self.signedIn()
        let caller = Caller()
        let (enqueues, tokens) = try await caller.enqueuesDuring(50, f.client)
        #expect(tokens == [session.accessToken])
        // A `nonisolated async` accessToken() came back to the caller once a call (50).
        #expect(enqueues == 0)
        await f.client.shutdown()
    }

    /// The slow path's errors reach the caller on its own executor: an app's
    /// `catch` on the main actor runs on the main actor.
    @MainActor @Test func anErrorIsThrownOnTheMainActor() async throws {
        let f = await WorldFixture.make(.goTrue)
        for _ in 0..<20 {
            do {
                _ = try await f.client.accessToken()
                Issue.record("accessToken() answered without a session")
            } catch {
                #expect(error == .notSignedIn)
                #expect(MainQueue.isCurrent)
            }
        }
        await f.client.shutdown()
    }

    /// The refresh path is unchanged: an expired token still goes through the
    /// actor (a refresh at the server), and the caller gets its executor back.
    @MainActor @Test func anExpiredTokenIsStillRefreshedThroughTheActor() async throws {
        let (f, _, session) = try await Self.signedIn()
        f.expireAccessToken()
        let token = try await f.client.accessToken()
        #expect(token != session.accessToken)
        #expect(MainQueue.isCurrent)
        #expect(await f.client.currentSession?.accessToken == token)
        // The new token is published for the fast path, on the main actor too.
        let again = try await f.client.accessToken()
        #expect(again == token)
        await f.client.shutdown()
    }
}
