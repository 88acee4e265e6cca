import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// `benchmarks storm-worker DIR URL FIRE_AT CALLS`: one of item 2's processes.
/// Restores the shared store, waits for FIRE_AT, asks CALLS times at once,
/// and prints one JSON line saying when its burst ran and how it got its token.
enum StormWorker {
    /// The line a worker prints; `ProcessStorm` reads it.
    struct Line: Codable {
        /// Wall-clock seconds since 1970: the only clock eight processes share.
        let start: Double
        let end: Double
        /// This process's own refresh answered (a `tokenRefreshed` event).
        let refreshed: Bool
        /// It took in a session another process had refreshed (`adoptedStoredSession`).
        let adopted: Bool
        /// The token it holds after the burst differs from the one it restored.
        let tokenChanged: Bool
        let distinctTokens: Int
    }

    static func main(_ arguments: [String]) async throws {
        guard arguments.count == 4, let url = URL(string: arguments[1]), let fireAt = Double(arguments[2]),
            let calls = Int(arguments[3])
        else { throw BenchError("usage: benchmarks storm-worker DIR URL FIRE_AT CALLS") }
        let client = Bench.makeClient(
            baseURL: url, store: FileSessionStore(directory: URL(fileURLWithPath: arguments[0], isDirectory: true)),
            clock: SystemClock(), transport: URLSessionTransport(session: Bench.makeURLSession()))
        guard let restored = try await client.restore().session?.accessToken else {
            throw BenchError("storm-worker: the shared store holds no session")
        }
        // Subscribed before the burst, so no event of it is missed.
        let events = client.events
        let watcher = Task { () -> (refreshed: Bool, adopted: Bool) in
            var seen: (refreshed: Bool, adopted: Bool) = (false, false)
            for await event in events {
                switch event {
                case .tokenRefreshed: seen.refreshed = true
                case .adoptedStoredSession: seen.adopted = true
                default: break
                }
            }
            return seen
        }
        let wait = fireAt - Date().timeIntervalSince1970
        if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
        let start = Date().timeIntervalSince1970
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<calls { group.addTask { try await client.accessToken() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        let end = Date().timeIntervalSince1970
        // Events are delivered asynchronously; give the last one a moment to arrive.
        try await Task.sleep(for: .milliseconds(200))
        watcher.cancel()
        let seen = await watcher.value
        let line = Line(
            start: start, end: end, refreshed: seen.refreshed, adopted: seen.adopted,
            tokenChanged: tokens != [restored], distinctTokens: tokens.count)
        print(String(decoding: try JSONEncoder().encode(line), as: UTF8.self))
    }
}
