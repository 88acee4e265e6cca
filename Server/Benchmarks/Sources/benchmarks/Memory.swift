import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionServer

/// Item 6: server RSS idle and after many sessions; memory per `SessionClient`.
/// Each probe runs in a fresh child process so earlier items do not count.
enum Memory {
    static func run(report: Report, quick: Bool) async throws {
        let sessions = quick ? 10_000 : 100_000
        let clients = quick ? 1_000 : 10_000
        let tokens = quick ? 2_000 : 20_000
        let server = try await probe(["memory-server", String(sessions), String(tokens)])
        guard server.count == 3 else { throw BenchError("the server memory probe answered \(server)") }
        await report.add("6", "server RSS at idle (SQLite file, after start-up and one request)", Format.mebibytes(server[0]))
        await report.add(
            "6", "server RSS after \(sessions) sessions", Format.mebibytes(server[1]),
            detail: "+ \(Format.mebibytes(server[1] - server[0])) over idle")
        await report.add("6", "server RSS after \(tokens) more requests, each with a new token (cache capacity 10,000)", Format.mebibytes(server[2]))
        let client = try await probe(["memory-client", String(clients)])
        guard client.count == 2 else { throw BenchError("the client memory probe answered \(client)") }
        await report.add("6", "memory per SessionClient (signed in, \(clients) clients)", Format.kibibytes((client[1] - client[0]) / Double(clients)))
    }

    static func probe(_ arguments: [String]) async throws -> [Double] {
        let (status, text) = try await Subprocess.output(executable: Subprocess.selfExecutable, arguments: arguments)
        guard status == 0 else { throw BenchError("\(arguments[0]) exited \(status)") }
        let line = text.split(separator: "\n").last(where: { $0.hasPrefix("rss ") }) ?? ""
        return line.split(separator: " ").dropFirst().compactMap { Double($0) }
    }

    /// `benchmarks memory-server N TOKENS`: prints `rss IDLE AFTER_SESSIONS AFTER_TOKENS` in bytes.
    static func server(_ arguments: [String]) async throws {
        let count = arguments.first.flatMap { Int($0) } ?? 100_000
        let tokenCount = arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-mem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { _ = try? FileManager.default.removeItem(at: directory) }
        let configuration = Bench.serverConfiguration(
            clock: SystemClock(), database: .sqlite(path: directory.appendingPathComponent("auth.sqlite").path))
        let server = try await Bench.makeServer(configuration)
        try await server.withRunningServer { baseURL in
            let transport = URLSessionTransport(session: Bench.makeURLSession())
            let tokens = try await Bench.signUp(baseURL, email: "memory@example.com", transport: transport)
            _ = try await transport.send(Bench.request("GET", baseURL.appendingPathComponent("v1/auth/me"), bearer: tokens.accessToken))
            let idle = Machine.residentBytes()
            let now = Date()
            for _ in 0..<count {
                _ = try await server.store.createSession(
                    userID: tokens.user!.id, userAgent: "bench", ip: "127.0.0.1", now: now,
                    refreshTokenTTL: configuration.refreshTokenTTL, absoluteTTL: configuration.sessionAbsoluteTTL)
            }
            let afterSessions = Machine.residentBytes()
            // Fill the verified-token cache past its capacity through the real middleware path.
            var current = tokens
            for _ in 0..<tokenCount {
                current = try await Bench.refresh(baseURL, token: current.refreshToken, transport: transport)
                _ = try await transport.send(
                    Bench.request("GET", baseURL.appendingPathComponent("v1/auth/me"), bearer: current.accessToken))
            }
            let afterTokens = Machine.residentBytes()
            print("rss \(idle) \(afterSessions) \(afterTokens) cache=\(server.tokenCache.count)")
        }
    }

    /// `benchmarks memory-client N`: prints `rss BEFORE AFTER` around N signed-in clients.
    static func client(_ arguments: [String]) async throws {
        let count = arguments.first.flatMap { Int($0) } ?? 10_000
        let url = URL(string: "http://127.0.0.1:9")!
        let transport = URLSessionTransport(session: Bench.makeURLSession())
        func record(_ index: Int) -> StoredSession {
            // Realistic sizes: a ~600-byte JWT and a 40-character refresh token.
            StoredSession(
                accessToken: String(repeating: "a", count: 600) + String(index), refreshToken: UUID().uuidString + "abcd",
                expiresAt: Date().addingTimeInterval(3600), lifetime: 3600)
        }
        var clients: [SessionClient] = []
        clients.reserveCapacity(count)
        let warm = Bench.makeClient(baseURL: url, store: InMemorySessionStore(record(0)), clock: SystemClock(), transport: transport)
        _ = try await warm.restore()
        let before = Machine.residentBytes()
        for index in 0..<count {
            let client = Bench.makeClient(baseURL: url, store: InMemorySessionStore(record(index)), clock: SystemClock(), transport: transport)
            _ = try await client.restore()
            clients.append(client)
        }
        let after = Machine.residentBytes()
        print("rss \(before) \(after) clients=\(clients.count)")
    }
}
