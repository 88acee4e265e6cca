import Dispatch

/// Runs blocking work (bcrypt) off the cooperative pool, at most `limit` at once.
///
/// One Dispatch block per call let a burst of sign-ins start a thread each:
/// more threads than cores only time-slice the same CPU, and the scheduler's
/// switching and the cache misses came out of every sign-in. With the cap, a
/// burst queues here, in arrival order, and each hash runs on a warm core
/// (docs/BENCHMARKS.md, "Sign-in").
actor WorkSlots {
    /// The most pieces of work running at once.
    nonisolated let limit: Int
    private nonisolated let dispatch: @Sendable (@escaping @Sendable () -> Void) -> Void
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// - Parameters:
    ///   - limit: the most at once (at least 1); the core count is the natural choice.
    ///   - dispatch: where work runs; tests pass one that holds work until told.
    init(
        limit: Int,
        dispatch: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { DispatchQueue.global(qos: .userInitiated).async(execute: $0) }
    ) {
        self.limit = max(1, limit)
        self.dispatch = dispatch
    }

    /// Runs `work` once a slot is free, and returns its result.
    nonisolated func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await acquire()
        let result = await withCheckedContinuation { continuation in
            dispatch { continuation.resume(returning: work()) }
        }
        await release()
        return result
    }

    /// How many run and how many wait now (for tests).
    var load: (running: Int, waiting: Int) { (running, waiting.count) }

    private func acquire() async {
        if running < limit {
            running += 1
            return
        }
        // The slot passes straight to a waiter in `release`, so `running` never dips.
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
