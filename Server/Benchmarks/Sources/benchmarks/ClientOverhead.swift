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
            // Alternate which goes first, so drift and warm caches favour neither.
            let samples = quick ? 1_000 : 3_000
            var sdk: [Double] = []
            var hand: [Double] = []
            for index in 0..<samples {
                if index.isMultiple(of: 2) {
                    sdk.append(try await viaClient())
                    hand.append(try await viaHand())
                } else {
                    hand.append(try await viaHand())
                    sdk.append(try await viaClient())
                }
            }
            for (label, p) in [("p50", 0.5), ("p99", 0.99)] {
                let ratio = Stats.percentile(sdk, p) / Stats.percentile(hand, p)
                await report.add(
                    "1", "client.send ÷ hand-set header, \(label) (\(Format.micros(Stats.percentile(sdk, p))) vs \(Format.micros(Stats.percentile(hand, p))))",
                    Format.ratio(ratio), goal: "≤ 1.05", met: ratio <= 1.05)
            }

            // accessToken() on the hot path, beside an empty actor call.
            let calls = quick ? 200_000 : 2_000_000
            let floor = Floor()
            var floorTimes: [Double] = []
            var tokenTimes: [Double] = []
            for _ in 0..<5 {
                floorTimes.append(await Stopwatch.seconds { for _ in 0..<calls { _ = await floor.value() } } / Double(calls))
                tokenTimes.append(try await Stopwatch.seconds { for _ in 0..<calls { _ = try await client.accessToken() } } / Double(calls))
            }
            let perCall = Stats.median(tokenTimes)
            await report.add("1", "accessToken() per call, cached valid token", Format.nanos(perCall), goal: "< 1 µs", met: perCall < 1e-6)
            await report.add(
                "1", "accessToken() ÷ empty actor call (\(Format.nanos(Stats.median(floorTimes))))",
                Format.ratio(perCall / Stats.median(floorTimes)))
        }
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
