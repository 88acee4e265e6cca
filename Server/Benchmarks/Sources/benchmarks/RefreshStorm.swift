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

    /// One process, `calls` concurrent sends, manual clocks frozen during the storm.
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

            // Baselines, same run: one refresh round trip, one request round trip, and the same batch with a valid token.
            _ = try await sendAll(client, me, count: 200)
            var refreshTimes: [Double] = []
            var requestTimes: [Double] = []
            for _ in 0..<30 {
                refreshTimes.append(try await Stopwatch.seconds { _ = try await client.refresh() })
                requestTimes.append(try await Stopwatch.seconds { _ = try await sendAll(client, me, count: 1) })
            }
            var batchTimes: [Double] = []
            for _ in 0..<3 { batchTimes.append(try await Stopwatch.seconds { _ = try await sendAll(client, me, count: calls) }) }
            let refreshRTT = Stats.median(refreshTimes)
            let requestRTT = Stats.median(requestTimes)
            let batch = Stats.median(batchTimes)

            // The storm: both clocks jump past expiry, then every call at once.
            let before = Bench.refreshCount(server)
            let jump = serverClock.now.addingTimeInterval(server.configuration.accessTokenTTL + 120)
            serverClock.set(to: jump)
            clientClock.set(to: jump)
            let storm = try await Stopwatch.seconds { _ = try await sendAll(client, me, count: calls) }
            let refreshes = Bench.refreshCount(server) - before

            await report.add(
                "2", "refreshes the server saw, \(calls) concurrent sends at expiry", String(Int(refreshes)),
                goal: "1", met: refreshes == 1)
            let multiple = storm / (refreshRTT + batch)
            await report.add(
                "2",
                "storm time ÷ (refresh RTT + same \(calls) sends with a valid token) (\(Format.millis(storm)) vs \(Format.millis(refreshRTT)) + \(Format.millis(batch)))",
                Format.ratio(multiple), goal: "≤ 2", met: multiple <= 2)
            await report.add(
                "2", "storm time ÷ (refresh RTT + one request RTT) (\(Format.millis(refreshRTT)) + \(Format.millis(requestRTT)); strict reading)",
                Format.ratio(storm / (refreshRTT + requestRTT)))
        }
    }

    /// Sends `count` copies of `request` at once; all must answer 200.
    static func sendAll(_ client: SessionClient, _ request: URLRequest, count: Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let (_, response) = try await client.send(request)
                    return response.statusCode
                }
            }
            var ok = 0
            for try await status in group {
                guard status == 200 else { throw BenchError("a storm request answered \(status)") }
                ok += 1
            }
            return ok
        }
    }

    /// Eight processes restore one `FileSessionStore` and ask for a token at the moment it expires.
    static func runProcesses(report: Report, quick: Bool) async throws {
        let processes = 8
        let callsPerProcess = quick ? 20 : 100
        // A short lifetime so expiry comes in real time: the client treats the
        // token as expired `lifetime / 4` early (2 s here), 6 s after issue.
        var configuration = Bench.serverConfiguration(clock: SystemClock())
        configuration.accessTokenTTL = 8
        let server = try await Bench.makeServer(configuration)
        try await server.withRunningServer { baseURL in
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("bench-storm-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { _ = try? FileManager.default.removeItem(at: directory) }
            let transport = URLSessionTransport(session: Bench.makeURLSession())
            _ = try await Bench.signUp(baseURL, email: "procs@example.com", transport: transport)
            let client = Bench.makeClient(
                baseURL: baseURL, store: FileSessionStore(directory: directory), clock: SystemClock(), transport: transport)
            let session = try await client.signIn(email: "procs@example.com", password: password)
            let fireAt = session.expiresAt.addingTimeInterval(-2 + 0.25)
            let before = Bench.refreshCount(server)
            let started = ContinuousClock.now
            let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
                for _ in 0..<processes {
                    group.addTask {
                        try await Subprocess.run(
                            executable: Subprocess.selfExecutable,
                            arguments: [
                                "storm-worker", directory.path, baseURL.absoluteString,
                                String(fireAt.timeIntervalSince1970), String(callsPerProcess),
                            ])
                    }
                }
                return try await group.reduce(into: [Int32]()) { $0.append($1) }
            }
            let elapsed = (ContinuousClock.now - started).seconds
            let refreshes = Bench.refreshCount(server) - before
            guard statuses.allSatisfy({ $0 == 0 }) else { throw BenchError("a storm worker failed: \(statuses)") }
            await report.add(
                "2", "refreshes the server saw, \(processes) processes × \(callsPerProcess) accessToken() sharing a FileSessionStore",
                String(Int(refreshes)), goal: "1", met: refreshes == 1)
            await report.add("2", "8-process storm wall time (includes process start and the wait for expiry)", Format.millis(elapsed))
        }
    }

    /// `benchmarks storm-worker DIR URL FIRE_AT CALLS`: restore, wait for FIRE_AT, ask CALLS times at once.
    static func worker(_ arguments: [String]) async throws {
        guard arguments.count == 4, let url = URL(string: arguments[1]), let fireAt = Double(arguments[2]),
            let calls = Int(arguments[3])
        else { throw BenchError("usage: benchmarks storm-worker DIR URL FIRE_AT CALLS") }
        let client = Bench.makeClient(
            baseURL: url, store: FileSessionStore(directory: URL(fileURLWithPath: arguments[0], isDirectory: true)),
            clock: SystemClock(), transport: URLSessionTransport(session: Bench.makeURLSession()))
        _ = try await client.restore()
        let wait = fireAt - Date().timeIntervalSince1970
        if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<calls { group.addTask { try await client.accessToken() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        print("storm-worker: \(calls) calls, \(tokens.count) distinct token(s)")
    }
}
