import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionServer

/// Item 2, across processes: eight `storm-worker`s restore one
/// `FileSessionStore` and ask for a token at the moment it expires. Exactly
/// one may refresh; the others must adopt its session, and their bursts must
/// really overlap for that to prove anything.
enum ProcessStorm {
    static let processes = 8

    static func run(report: Report, quick: Bool) async throws {
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
            let session = try await client.signIn(email: "procs@example.com", password: RefreshStorm.password)
            let fireAt = session.expiresAt.addingTimeInterval(-2 + 0.25)
            let before = Bench.refreshCount(server)
            let started = ContinuousClock.now
            let outputs = try await withThrowingTaskGroup(of: (status: Int32, text: String).self) { group in
                for _ in 0..<processes {
                    group.addTask {
                        try await Subprocess.output(
                            executable: Subprocess.selfExecutable,
                            arguments: [
                                "storm-worker", directory.path, baseURL.absoluteString,
                                String(fireAt.timeIntervalSince1970), String(callsPerProcess),
                            ])
                    }
                }
                return try await group.reduce(into: [(status: Int32, text: String)]()) { $0.append($1) }
            }
            let elapsed = (ContinuousClock.now - started).seconds
            let refreshes = Bench.refreshCount(server) - before
            guard outputs.allSatisfy({ $0.status == 0 }) else {
                throw BenchError("a storm worker failed: \(outputs.map(\.status))")
            }
            let lines = try outputs.map { try parse($0.text) }
            await report.add(
                "2", "refreshes the server saw, \(processes) processes × \(callsPerProcess) accessToken() sharing a FileSessionStore",
                String(Int(refreshes)), goal: "1", met: refreshes == 1)
            await record(lines, report: report)
            await report.add("2", "8-process storm wall time (includes process start and the wait for expiry)", Format.millis(elapsed))
        }
    }

    static func parse(_ output: String) throws -> StormWorker.Line {
        guard let json = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
            throw BenchError("a storm worker printed no result: \(output)")
        }
        return try JSONDecoder().decode(StormWorker.Line.self, from: Data(json.utf8))
    }

    /// Overlap is what makes the storm a storm: if the bursts ran one after
    /// another, adoption would only show that the store was read at start.
    static func record(_ lines: [StormWorker.Line], report: Report) async {
        let origin = lines.map(\.start).min() ?? 0
        let latestStart = (lines.map(\.start).max() ?? 0) - origin
        let earliestEnd = (lines.map(\.end).min() ?? 0) - origin
        let overlap = latestStart < earliestEnd
        await report.add(
            "2", "8-process storm: every burst overlaps every other (latest start < earliest end)", overlap ? "yes" : "no",
            goal: "yes", met: overlap,
            detail: "latest start \(Format.millis(latestStart)), earliest end \(Format.millis(earliestEnd)), "
                + "last end \(Format.millis((lines.map(\.end).max() ?? 0) - origin)) after the first start")
        let adopted = lines.filter { $0.adopted && !$0.refreshed }.count
        let refreshed = lines.filter(\.refreshed).count
        let unchanged = lines.filter { !$0.tokenChanged }.count
        await report.add(
            "2", "8-process storm: workers that adopted another process's refresh", "\(adopted) of \(lines.count)",
            goal: "≥ \(lines.count - 1) of \(lines.count)", met: adopted >= lines.count - 1,
            detail: "\(refreshed) refreshed itself; \(unchanged) kept the token it restored; "
                + "most distinct tokens seen by one worker: \(lines.map(\.distinctTokens).max() ?? 0)")
    }
}
