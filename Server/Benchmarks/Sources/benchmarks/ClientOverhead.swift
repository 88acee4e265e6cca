import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionServer

/// Item 1: what `client.send` adds over a hand-set header on the same
/// URLSession, and the cost of `accessToken()` with a cached valid token.
enum ClientOverhead {
    /// The cheapest actor call: the floor under any `accessToken()`.
    actor Floor {
        let token = "token"
        func value() -> String { token }
    }

    static func run(report: Report, quick: Bool) async throws {
        let server = try await Bench.makeServer(Bench.serverConfiguration(clock: SystemClock()))
        try await server.withRunningServer { baseURL in
            let transport = URLSessionTransport(session: Bench.makeURLSession())
            _ = try await Bench.signUp(baseURL, email: "overhead@example.com", transport: transport)
            let client = Bench.makeClient(
                baseURL: baseURL, store: InMemorySessionStore(), clock: SystemClock(), transport: transport)
            _ = try await client.signIn(email: "overhead@example.com", password: "correct-horse-battery")
            let me = baseURL.appendingPathComponent("v1/auth/me")
            let token = try await client.accessToken()
            var byHand = URLRequest(url: me)
            byHand.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")

            func viaClient() async throws -> Double {
                try await Stopwatch.seconds {
                    let (_, response) = try await client.send(URLRequest(url: me))
                    guard response.statusCode == 200 else { throw BenchError("send answered \(response.statusCode)") }
                }
            }
            func viaHand() async throws -> Double {
                try await Stopwatch.seconds {
                    let (_, response) = try await transport.send(byHand)
                    guard response.statusCode == 200 else { throw BenchError("request answered \(response.statusCode)") }
                }
            }
            for _ in 0..<200 {
                _ = try await viaClient()
                _ = try await viaHand()
            }
            try await compareSend(report: report, quick: quick, viaClient: viaClient, viaHand: viaHand)
            try await measureAccessToken(report: report, quick: quick, client: client)
        }
    }

    /// Each repetition times `samples` sends through each path, alternating
    /// sample by sample (and which path leads, repetition by repetition), and
    /// yields both paths' p50 and p99; the ratios are paired within a
    /// repetition, so load that comes and goes cancels out. Each figure is the
    /// median of the per-repetition ratios with a 95 % percentile-bootstrap
    /// interval of that median (`Stats.bootstrapMedianInterval`).
    static func compareSend(
        report: Report, quick: Bool, viaClient: () async throws -> Double, viaHand: () async throws -> Double
    ) async throws {
        let repetitions = 10
        let samples = quick ? 300 : 1_000
        var pairs: [(a: [Double], b: [Double])] = []
        for repetition in 0..<repetitions {
            pairs.append(
                try await Repeated.interleavedSamples(
                    samples, startWithB: !repetition.isMultiple(of: 2), a: viaClient, b: viaHand))
        }
        for (label, p, limit) in [("p50", 0.5, 1.03), ("p99", 0.99, 1.05)] {
            let sdk = pairs.map { Stats.percentile($0.a, p) }
            let hand = pairs.map { Stats.percentile($0.b, p) }
            let ratios = Spread(zip(sdk, hand).map { $0 / $1 })
            let difference = Stats.median(zip(sdk, hand).map { $0 - $1 })
            await report.add(
                "1", "client.send ÷ hand-set header, \(label)", ratios, goal: .atMost(limit),
                detail: "\(Format.micros(Stats.median(sdk))) vs \(Format.micros(Stats.median(hand))); "
                    + "median paired difference \(Format.micros(difference)); \(samples) sends a path a repetition",
                interval: true)
        }
    }

    /// `accessToken()` on the hot path, beside an empty actor call, in interleaved rounds.
    static func measureAccessToken(report: Report, quick: Bool, client: SessionClient) async throws {
        let calls = quick ? 200_000 : 2_000_000
        let floor = Floor()
        let rounds = try await Repeated.interleaved(
            quick ? 5 : 7,
            a: { try await Stopwatch.seconds { for _ in 0..<calls { _ = try await client.accessToken() } } / Double(calls) },
            b: { await Stopwatch.seconds { for _ in 0..<calls { _ = await floor.value() } } / Double(calls) })
        await report.add(
            "1", "accessToken() per call, cached valid token", Spread(rounds.map(\.a)), goal: .atMost(100e-9, "100 ns"),
            detail: "\(calls) calls a round", format: Format.nanos)
        await report.add(
            "1", "accessToken() ÷ empty actor call", Spread(rounds.map { $0.a / $0.b }),
            detail: "empty actor call \(Format.nanos(Stats.median(rounds.map(\.b))))")
    }
}

extension ClientOverhead {
    /// `benchmarks profile-access-token N`: only the `accessToken()` hot path,
    /// for `valgrind --tool=callgrind` or `perf record` (no server, no network).
    static func profile(_ arguments: [String]) async throws {
        let calls = arguments.first.flatMap { Int($0) } ?? 1_000_000
        let record = StoredSession(
            accessToken: String(repeating: "a", count: 600), refreshToken: "refresh-token-for-profiling",
            expiresAt: Date().addingTimeInterval(3600), lifetime: 3600)
        let client = Bench.makeClient(
            baseURL: URL(string: "http://127.0.0.1:9")!, store: InMemorySessionStore(record), clock: SystemClock(),
            transport: URLSessionTransport(session: Bench.makeURLSession()))
        _ = try await client.restore()
        let seconds = try await Stopwatch.seconds { for _ in 0..<calls { _ = try await client.accessToken() } }
        print("accessToken(): \(calls) calls, \(Format.nanos(seconds / Double(calls))) per call")
    }
}
