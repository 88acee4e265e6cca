import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import SessionServer

/// bcrypt's concurrency cap: no more than `limit` hashes run at once, the
/// rest wait their turn, and every caller gets its own result.
struct WorkSlotsTests {
    /// A dispatcher that holds work until the test lets it run, so "how many
    /// are running" is a count, not a race.
    final class HeldWork: Sendable {
        private let jobs = NIOLockedValueBox([@Sendable () -> Void]())
        var count: Int { jobs.withLockedValue { $0.count } }
        func hold(_ job: @escaping @Sendable () -> Void) { jobs.withLockedValue { $0.append(job) } }
        /// Runs the oldest held job on a thread of its own.
        func releaseOne() {
            let job = jobs.withLockedValue { $0.isEmpty ? nil : $0.removeFirst() }
            if let job { Thread.detachNewThread(job) }
        }
    }

    /// Yields until `condition` holds; records an issue if it never does.
    func eventually(_ what: String, _ condition: () async -> Bool) async {
        for _ in 0..<100_000 {
            if await condition() { return }
            await Task.yield()
        }
        Issue.record("never: \(what)")
    }

    @Test func runsAtMostTheLimitAtOnceAndTheRestInTurn() async throws {
        let held = HeldWork()
        let slots = WorkSlots(limit: 2) { held.hold($0) }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<6 { group.addTask { await slots.run { index * 10 } } }
            // All six have asked: two hold a slot, four wait.
            await eventually("two running and four waiting") { await slots.load == (2, 4) }
            #expect(held.count == 2)
            held.releaseOne()
            // A finished hash hands its slot to the next in line; still two at once.
            await eventually("the third started") {
                let load = await slots.load
                return held.count == 2 && load == (2, 3)
            }
            await eventually("all six ran") {
                held.releaseOne()
                let load = await slots.load
                return held.count == 0 && load == (0, 0)
            }
            var results: [Int] = []
            for try await result in group { results.append(result) }
            #expect(results.sorted() == [0, 10, 20, 30, 40, 50])
        }
        #expect(await slots.load == (0, 0))
    }
}
