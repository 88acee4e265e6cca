import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer

/// Item 2: many concurrent `send` calls at the moment the access token expires.
enum RefreshStorm {
    static let password = "correct-horse-battery"

    /// One storm: the whole batch's time, the first request's latency, the refreshes the server saw.
    struct Storm {
        let total: Double
        let first: Double
        let refreshes: Double
    }

    /// What a storm is compared with, measured in the same repetition.
    struct Baseline {
        /// One request alone at expiry: the refresh and the request, without a crowd.
        let loneAtExpiry: Double
        let refreshRTT: Double
        let requestRTT: Double
        let batch: Double
        /// The first request of that batch to complete: what the storm's first would be without the refresh.
        let batchFirst: Double
    }

    /// One process, `calls` concurrent sends, manual clocks frozen during each storm;
    /// storms and their baselines interleaved over repetitions.
    static func run(report: Report, quick: Bool) async throws {
        let calls = quick ? 1_000 : 10_000
        let serverClock = ManualClock(start: Date())
        let server = try await Bench.makeServer(Bench.serverConfiguration(clock: serverClock))
        try await server.withRunningServer { baseURL in
            let clientClock = ManualClock(start: serverClock.now)
            let transport = MiddlewareTransport(
                base: URLSessionTransport(session: Bench.makeURLSession()),
                middlewares: [ServerDateMiddleware(serverClock: serverClock)])
            _ = try await Bench.signUp(baseURL, email: "storm@example.com", transport: transport)
            let client = Bench.makeClient(baseURL: baseURL, store: InMemorySessionStore(), clock: clientClock, transport: transport)
            _ = try await client.signIn(email: "storm@example.com", password: password)
            let me = URLRequest(url: baseURL.appendingPathComponent("v1/auth/me"))
            _ = try await sendAll(client, me, count: 200)

            func expire() {
                let jump = serverClock.now.addingTimeInterval(server.configuration.accessTokenTTL + 120)
                serverClock.set(to: jump)
                clientClock.set(to: jump)
            }
            func storm() async throws -> Storm {
                let before = Bench.refreshCount(server)
                // Both clocks jump past expiry, then every call at once.
                expire()
                let (total, first) = try await sendAll(client, me, count: calls)
                return Storm(total: total, first: first, refreshes: Bench.refreshCount(server) - before)
            }
            func baseline() async throws -> Baseline {
                // Five requests alone at expiry, each after its own jump, like the round trips below:
                // one sample taken right after a storm of 10,000 measured the storm's aftermath.
                var loneTimes: [Double] = []
                for _ in 0..<5 {
                    expire()
                    loneTimes.append(try await sendAll(client, me, count: 1).total)
                }
                let lone = Stats.median(loneTimes)
                var refreshTimes: [Double] = []
                var requestTimes: [Double] = []
                for _ in 0..<5 {
                    refreshTimes.append(try await Stopwatch.seconds { _ = try await client.refresh() })
                    requestTimes.append(try await sendAll(client, me, count: 1).total)
                }
                let batch = try await sendAll(client, me, count: calls)
                return Baseline(
                    loneAtExpiry: lone, refreshRTT: Stats.median(refreshTimes), requestRTT: Stats.median(requestTimes), batch: batch.total,
                    batchFirst: batch.first)
            }
            let runs = try await Repeated.interleaved(Repeated.repetitions, a: storm, b: baseline)
            try await record(runs, calls: calls, report: report)
        }
    }

    static func record(_ runs: [(a: Storm, b: Baseline)], calls: Int, report: Report) async throws {
        let refreshes = runs.map { Int($0.a.refreshes) }
        await report.add(
            "2", "refreshes the server saw per storm, \(calls) concurrent sends at expiry",
            refreshes.allSatisfy { $0 == 1 } ? "1 in each of \(runs.count) storms" : refreshes.map(String.init).joined(separator: ", "),
            goal: "1", met: refreshes.allSatisfy { $0 == 1 })
        let median = { (values: [Double]) in Format.millis(Stats.median(values)) }
        await report.add(
            "2", "storm time ÷ (refresh RTT + same \(calls) sends with a valid token)",
            Spread(runs.map { $0.a.total / ($0.b.refreshRTT + $0.b.batch) }), goal: .atMost(1.05),
            detail: "\(median(runs.map(\.a.total))) vs \(median(runs.map(\.b.refreshRTT))) + \(median(runs.map(\.b.batch)))")
        await report.add(
            "2", "first storm request to complete ÷ (refresh RTT + one request RTT)",
            Spread(runs.map { $0.a.first / ($0.b.refreshRTT + $0.b.requestRTT) }), goal: .atMost(3),
            detail: "\(median(runs.map(\.a.first))) vs \(median(runs.map(\.b.refreshRTT))) + \(median(runs.map(\.b.requestRTT)))")
        await report.add(
            "2", "one request alone at expiry ÷ (refresh RTT + one request RTT)",
            Spread(runs.map { $0.b.loneAtExpiry / ($0.b.refreshRTT + $0.b.requestRTT) }),
            detail: "\(median(runs.map(\.b.loneAtExpiry))): the refresh's added latency without \(calls - 1) other requests")
        await report.add(
            "2", "first request to complete, storm ÷ same batch with a valid token",
            Spread(runs.map { $0.a.first / $0.b.batchFirst }),
            detail: "\(median(runs.map(\.a.first))) vs \(median(runs.map(\.b.batchFirst))): what the refresh adds to the first answer")
        await report.add(
            "2", "storm time ÷ (refresh RTT + one request RTT), strict reading",
            Spread(runs.map { $0.a.total / ($0.b.refreshRTT + $0.b.requestRTT) }))
    }

    /// Sends `count` copies of `request` at once; all must answer 200.
    /// Returns the time until the last answer and until the first one.
    static func sendAll(_ client: SessionClient, _ request: URLRequest, count: Int) async throws -> (total: Double, first: Double) {
        let start = ContinuousClock.now
        // Each request notes its own completion: the group hands results to
        // this task in completion order, but only when this task next runs.
        let first = try await withThrowingTaskGroup(of: ContinuousClock.Instant.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let (_, response) = try await client.send(request)
                    guard response.statusCode == 200 else { throw BenchError("a storm request answered \(response.statusCode)") }
                    return ContinuousClock.now
                }
            }
            return try await group.reduce(ContinuousClock.Instant?.none) { earliest, done in min(earliest ?? done, done) }
        }
        let end = ContinuousClock.now
        return ((end - start).seconds, ((first ?? end) - start).seconds)
    }
}
