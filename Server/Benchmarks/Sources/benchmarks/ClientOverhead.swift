import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionServer

/// Item 1: what `client.send` adds over a hand-set header on the same
/// URLSession, and the cost of `accessToken()` with a cached valid token;
/// each from a task off the main actor (as a detached task runs) and from
/// the main actor (where apps call from: `MainActorArms`), interleaved.
/// `send` is measured twice: to the auth server's own origin (`/v1/auth/me`,
/// through the client actor: every answer there is a clock sample) and to
/// the app's own API origin (the same server under another name, `localhost`
/// beside `127.0.0.1`, in `authorizedOrigins`: beside the actor, issue 44).
enum ClientOverhead {
    /// The cheapest actor call: the floor under any `accessToken()`.
    actor Floor {
        let token = "token"
        func value() -> String { token }
    }

    /// The send arms of one sample, timed one after another in a rotating
    /// order: the SDK and the hand-set header, off and on the main actor, to
    /// the auth server's origin (the first four) and to the app's (the last four).
    struct SendArms {
        let viaClient: () async throws -> Double
        let viaHand: () async throws -> Double
        let viaClientOnMain: () async throws -> Double
        let viaHandOnMain: () async throws -> Double
        let app: [() async throws -> Double]

        var all: [() async throws -> Double] { [viaClient, viaHand, viaClientOnMain, viaHandOnMain] + app }
    }

    /// The same server under another host name: another origin to the client.
    static func appOrigin(of baseURL: URL) throws -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw BenchError("no origin in \(baseURL)")
        }
        components.host = components.host == "localhost" ? "127.0.0.1" : "localhost"
        guard let url = components.url else { throw BenchError("no app origin for \(baseURL)") }
        return url
    }

    static func run(report: Report, quick: Bool) async throws {
        let server = try await Bench.makeServer(Bench.serverConfiguration(clock: SystemClock()))
        try await server.withRunningServer { baseURL in
            let transport = URLSessionTransport(session: Bench.makeURLSession())
            _ = try await Bench.signUp(baseURL, email: "overhead@example.com", transport: transport)
            let appBase = try appOrigin(of: baseURL)
            let client = Bench.makeClient(
                baseURL: baseURL, store: InMemorySessionStore(), clock: SystemClock(), transport: transport,
                authorizedOrigins: [appBase])
            _ = try await client.signIn(email: "overhead@example.com", password: "correct-horse-battery")
            let me = baseURL.appendingPathComponent("v1/auth/me")
            let appMe = appBase.appendingPathComponent("v1/auth/me")
            let token = try await client.accessToken()
            func byHand(_ url: URL) -> URLRequest {
                var request = URLRequest(url: url)
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                return request
            }
            let (byHandAuth, byHandApp) = (byHand(me), byHand(appMe))
            func viaClient(_ url: URL) -> () async throws -> Double {
                {
                    try await Stopwatch.seconds {
                        let (_, response) = try await client.send(URLRequest(url: url))
                        guard response.statusCode == 200 else { throw BenchError("send answered \(response.statusCode)") }
                    }
                }
            }
            func viaHand(_ request: URLRequest) -> () async throws -> Double {
                {
                    try await Stopwatch.seconds {
                        let (_, response) = try await transport.send(request)
                        guard response.statusCode == 200 else { throw BenchError("request answered \(response.statusCode)") }
                    }
                }
            }

            // This function runs off the main actor (Runner.main is a plain
            // `nonisolated async` function called from top-level code).
            let arms = SendArms(
                viaClient: viaClient(me),
                viaHand: viaHand(byHandAuth),
                viaClientOnMain: { try await MainActorArms.send(client, URLRequest(url: me)) },
                viaHandOnMain: { try await MainActorArms.sendByHand(transport, byHandAuth) },
                app: [
                    viaClient(appMe), viaHand(byHandApp),
                    { try await MainActorArms.send(client, URLRequest(url: appMe)) },
                    { try await MainActorArms.sendByHand(transport, byHandApp) },
                ])
            for _ in 0..<200 {
                for arm in arms.all { _ = try await arm() }
            }
            try await compareSend(report: report, quick: quick, arms: arms)
            // Issue 43, item 8: the proof's cost per send, in the same run.
            try await DPoPSendCost.run(report: report, quick: quick)
            try await measureAccessToken(report: report, quick: quick, client: client)
        }
    }

    /// Each repetition times `samples` sends through each of the four arms,
    /// in a rotating order sample by sample, and yields every arm's p50 and
    /// p99; the ratios are paired within a repetition, so load that comes and
    /// goes cancels out. Each figure is the median of the per-repetition
    /// ratios with a 95 % percentile-bootstrap interval of that median
    /// (`Stats.bootstrapMedianInterval`).
    static func compareSend(report: Report, quick: Bool, arms: SendArms) async throws {
        let repetitions = 10
        let samples = quick ? 300 : 1_000
        var runs: [[[Double]]] = []
        for repetition in 0..<repetitions {
            runs.append(
                try await Repeated.rotatedSamples(
                    samples, offset: repetition, arms: arms.all))
        }
        for (label, p, limit) in [("p50", 0.5, 1.03), ("p99", 0.99, 1.05)] {
            let percentiles = runs.map { run in run.map { Stats.percentile($0, p) } }
            // The auth server's origin keeps the figure names of earlier rounds, so `--compare` matches them.
            for (destination, first) in [("", 0), (" to the app's origin", 4)] {
                for (place, sdkArm, handArm) in [("", first, first + 1), (" from the main actor", first + 2, first + 3)] {
                    let sdk = percentiles.map { $0[sdkArm] }
                    let hand = percentiles.map { $0[handArm] }
                    let difference = Stats.median(zip(sdk, hand).map { $0 - $1 })
                    await report.add(
                        "1", "client.send\(destination) ÷ hand-set header\(place), \(label)",
                        Spread(zip(sdk, hand).map { $0 / $1 }), goal: .atMost(limit),
                        detail: "\(Format.micros(Stats.median(sdk))) vs \(Format.micros(Stats.median(hand))); "
                            + "median paired difference \(Format.micros(difference)); \(samples) sends a path a repetition",
                        interval: true)
                }
                let onMain = percentiles.map { $0[first + 2] }
                let offMain = percentiles.map { $0[first] }
                await report.add(
                    "1", "client.send\(destination) from the main actor ÷ from a task off it, \(label)",
                    Spread(zip(onMain, offMain).map { $0 / $1 }),
                    detail: "\(Format.micros(Stats.median(onMain))) vs \(Format.micros(Stats.median(offMain)))")
            }
        }
    }

    /// `accessToken()` on the hot path, from a task off the main actor and
    /// from the main actor, beside an empty actor call and the hop a plain
    /// `nonisolated async` call pays from the main actor, in interleaved rounds.
    static func measureAccessToken(report: Report, quick: Bool, client: SessionClient) async throws {
        let calls = quick ? 200_000 : 2_000_000
        // A hop costs about 20 µs here: 20,000 of them are 0.4 s a round.
        let hops = quick ? 5_000 : 20_000
        let floor = Floor()
        let rounds = try await Repeated.rounds(
            quick ? 5 : 7,
            [
                { try await Stopwatch.seconds { for _ in 0..<calls { _ = try await client.accessToken() } } / Double(calls) },
                { await Stopwatch.seconds { for _ in 0..<calls { _ = await floor.value() } } / Double(calls) },
                { try await MainActorArms.accessToken(client, calls: calls) },
                { try await MainActorArms.accessTokenThroughHop(client, calls: hops) },
            ])
        let offMain = rounds.map { $0[0] }
        let onMain = rounds.map { $0[2] }
        let throughHop = rounds.map { $0[3] }
        await report.add(
            "1", "accessToken() per call, cached valid token", Spread(offMain), goal: .atMost(100e-9, "100 ns"),
            detail: "\(calls) calls a round, from a task off the main actor", format: Format.nanos)
        await report.add(
            "1", "accessToken() ÷ empty actor call", Spread(rounds.map { $0[0] / $0[1] }),
            detail: "empty actor call \(Format.nanos(Stats.median(rounds.map { $0[1] })))")
        await report.add(
            "1", "accessToken() per call from the main actor, cached valid token", Spread(onMain), format: Format.nanos)
        await report.add(
            "1", "accessToken() from the main actor ÷ from a task off it", Spread(zip(onMain, offMain).map { $0 / $1 }),
            goal: .atMost(2), detail: "\(calls) calls a round on each side")
        await report.add(
            "1", "accessToken() from the main actor behind a @concurrent hop, per call", Spread(throughHop),
            detail: "\(hops) calls a round; \(Format.ratio(Stats.median(zip(throughHop, offMain).map { $0 / $1 }))) × "
                + "a call from a task off the main actor: what every call cost before accessToken() was nonisolated(nonsending)",
            format: Format.micros)
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
