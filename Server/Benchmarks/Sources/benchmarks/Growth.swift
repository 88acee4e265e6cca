import Foundation
import SessionCore
import SessionKit
import SessionServer

/// Item 8 (issue 44, item 3): refresh, `GET /v1/auth/me` and password
/// sign-in at 10 thousand, 100 thousand and 1 million users (10 sessions
/// each), on SQLite and on PostgreSQL with fsync on; the largest size's
/// latency ÷ the smallest's in each repetition (the sizes' servers run side
/// by side, their order alternating), and the refreshes that ran while the
/// hourly prune deleted a tenth of the sessions. The points go to a JSON file
/// that `Benchmarks/run` plots (docs/benchmarks-growth.png).
enum Growth {
    struct Point: Codable {
        let database: String
        let users: Int
        let operation: String
        let p50: Double
        let p99: Double
        let rate: Double
    }

    static func run(report: Report, quick: Bool, postgresURL: String?) async throws {
        let sizes = quick ? [1_000, 10_000] : [10_000, 100_000, 1_000_000]
        let repetitions = quick ? 3 : Repeated.repetitions
        let seconds: Double = quick ? 1 : 2
        Console.line("   load before: \(uptime())")
        let version = try await GrowthPopulation.schemaVersion()
        var points: [Point] = []
        points += try await database(
            "SQLite", postgresURL: nil, sizes: sizes, version: version, repetitions: repetitions, seconds: seconds, report: report)
        if let postgresURL {
            let fsync = PostgresFsync(url: postgresURL)
            let shown = try await fsync.set(true)
            do {
                guard shown == "on" else { throw BenchError("SHOW fsync says \(shown), not on") }
                points += try await database(
                    "PostgreSQL fsync=on", postgresURL: postgresURL, sizes: sizes, version: version, repetitions: repetitions,
                    seconds: seconds, report: report)
            } catch {
                _ = try? await fsync.set(nil)
                throw error
            }
            _ = try await fsync.set(nil)
        } else {
            await report.add("8", "PostgreSQL", "not run: SESSIONKIT_BENCH_POSTGRES_URL is not set")
        }
        let path = ProcessInfo.processInfo.environment["SESSIONKIT_GROWTH_DATA"] ?? "\(GrowthPopulation.directory)/last-run.json"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(points).write(to: URL(fileURLWithPath: path))
        Console.line("   points for the plot: \(path)")
        Console.line("   load after: \(uptime())")
    }

    static func database(
        _ name: String, postgresURL: String?, sizes: [Int], version: Int, repetitions: Int, seconds: Double, report: Report
    ) async throws -> [Point] {
        let locations = try sizes.map { try GrowthPopulation.location(postgresURL: postgresURL, users: $0, version: version) }
        return try await withServers(Array(zip(sizes, locations))[...], running: []) { targets in
            for target in targets {
                if let took = try await GrowthPopulation.ensure(target.server.store, users: target.users) {
                    await report.add(
                        "8", "\(name): population of \(target.users) users", Format.seconds(took),
                        detail: "\(target.users * GrowthPopulation.sessionsPerUser) sessions, tokens and audit rows; \(target.users) identities")
                } else {
                    Console.line("   \(name), \(target.users) users: populated database reused (cached)")
                }
            }
            return try await measure(name, targets: targets, repetitions: repetitions, seconds: seconds, report: report)
        }
    }

    /// Starts one server per size, all running until `body` returns.
    static func withServers<T: Sendable>(
        _ remaining: ArraySlice<(Int, DatabaseLocation)>, running: [GrowthTarget],
        _ body: @escaping @Sendable ([GrowthTarget]) async throws -> T
    ) async throws -> T {
        guard let (users, location) = remaining.first else { return try await body(running) }
        var configuration = Bench.serverConfiguration(clock: SystemClock(), database: location)
        // Every request reads the database (no cached session check or user): what grows with the tables.
        configuration.sessionCheckCacheTTL = 0
        let server = try await Bench.makeServer(configuration)
        let rest = remaining.dropFirst()
        return try await server.withRunningServer { url in
            try await withServers(rest, running: running + [GrowthTarget(users: users, server: server, baseURL: url)], body)
        }
    }

    static func measure(
        _ name: String, targets: [GrowthTarget], repetitions: Int, seconds: Double, report: Report
    ) async throws -> [Point] {
        let transport = URLSessionTransport(session: Bench.makeURLSession())
        let operations = ["refresh", "me", "sign-in"]
        // Per repetition, per size: each operation's sample.
        let rounds: [[[GrowthSample]]] = try await Repeated.rounds(
            repetitions,
            targets.map { target in
                {
                    let (refresh, responses) = try await GrowthLoad.run(seconds: seconds, start: try await GrowthLoad.chains(target).map { ($0, "") }) {
                        let answer = try await GrowthLoad.refresh(target, token: $0.0, transport: transport)
                        return (answer.refreshToken, answer.accessToken)
                    }
                    let (me, _) = try await GrowthLoad.run(seconds: seconds, start: responses.map(\.1)) {
                        try await GrowthLoad.me(target, accessToken: $0, transport: transport)
                        return $0
                    }
                    let (signIn, _) = try await GrowthLoad.run(seconds: seconds, start: Array(repeating: 0, count: GrowthLoad.workers)) { _ in
                        try await GrowthLoad.signIn(target, user: Int.random(in: 1...target.users), transport: transport)
                        return 0
                    }
                    return [refresh, me, signIn]
                }
            })
        var points: [Point] = []
        for (s, target) in targets.enumerated() {
            for (o, operation) in operations.enumerated() {
                let samples = rounds.map { $0[s][o] }
                let point = Point(
                    database: name, users: target.users, operation: operation, p50: Stats.median(samples.map(\.p50)),
                    p99: Stats.median(samples.map(\.p99)), rate: Stats.median(samples.map(\.rate)))
                points.append(point)
                await report.add(
                    "8", "\(name): \(operation) at \(target.users) users, p50 / p99 / throughput",
                    "\(Format.millis(point.p50)) / \(Format.millis(point.p99)) / \(Format.rate(point.rate))",
                    detail: "medians of \(repetitions) runs of \(GrowthLoad.workers) workers")
            }
        }
        let (small, large) = (targets.first!, targets.last!)
        for (o, operation) in operations.enumerated() where operation != "sign-in" {
            for (label, value) in [("p50", \GrowthSample.p50), ("p99", \GrowthSample.p99)] {
                let ratios = Spread(rounds.map { $0[targets.count - 1][o][keyPath: value] / $0[0][o][keyPath: value] })
                await report.add(
                    "8", "\(name): \(operation) \(label), largest ÷ smallest table", ratios, goal: .atMost(1.5),
                    detail: "\(large.users) ÷ \(small.users) users, paired in each repetition")
            }
        }
        for (round, target) in targets.enumerated() {
            let dead = target.users
            let (overlapping, before, took, deleted) = try await GrowthLoad.pruneUnderLoad(
                target, dead: dead, round: round, transport: transport)
            let worst = overlapping.max() ?? .nan
            let usual = before.max() ?? .nan
            await report.add(
                "8", "\(name): refresh latency max during the prune, \(target.users) users", Format.millis(worst), goal: "≤ 50 ms",
                met: !worst.isNaN && worst <= 0.050,
                detail: String(
                    format: "p99 %@ of %d refreshes; the prune took %@ and deleted %d refresh tokens (%d dead sessions added)",
                    Format.millis(Stats.percentile(overlapping, 0.99)), overlapping.count, Format.millis(took), deleted, dead))
            // The goal read as "blocks": what the prune adds to the worst
            // refresh, against the same workers' worst in the seconds before it
            // (docs/BENCHMARKS.md, Round 3 — item 3, says why both are shown).
            let added = worst - usual
            await report.add(
                "8", "\(name): refresh latency max added by the prune, \(target.users) users", Format.millis(added), goal: "≤ 50 ms",
                met: !added.isNaN && added <= 0.050,
                detail: String(
                    format: "max %@ during the prune − max %@ of %d refreshes in the %.0f s before it (p99 before %@)",
                    Format.millis(worst), Format.millis(usual), before.count, GrowthLoad.beforePrune.seconds,
                    Format.millis(Stats.percentile(before, 0.99))))
            points.append(Point(database: name, users: target.users, operation: "prune", p50: took, p99: worst, rate: Double(deleted) / took))
        }
        return points
    }

    static func uptime() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
            .map { "load average " + $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
    }
}

extension Format {
    static func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }
}
