import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HummingbirdTesting
import Logging
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer
import Testing

/// A live `auth-server` on loopback and SessionKit clients talking to it over
/// real HTTP, both on manual clocks so a test can run hours in milliseconds.
struct LiveStack: Sendable {
    let server: AuthServer
    let serverClock: ManualClock
    let clientClock: ManualClock
    let baseURL: URL
    let logs: LogCapture

    /// Starts a server (in-memory SQLite, fast bcrypt), runs `body`, stops it.
    ///
    /// - Parameter clientClockOffset: how far the device clock is from the server's.
    static func run(
        clientClockOffset: TimeInterval = 0,
        configure: @Sendable (inout AuthServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (LiveStack) async throws -> Void
    ) async throws {
        let serverClock = ManualClock()
        let clientClock = ManualClock(start: serverClock.now.addingTimeInterval(clientClockOffset))
        var configuration = AuthServerConfiguration(
            host: "127.0.0.1", port: 0, database: .sqliteInMemory, bcryptCost: 4, clock: serverClock)
        configure(&configuration)
        var quiet = Logger(label: "e2e-auth-server")
        quiet.logLevel = .warning
        let server = try await AuthServer(configuration: configuration, logger: quiet)
        try await server.makeApplication().test(.live) { client in
            let port = try #require(client.port)
            let stack = LiveStack(
                server: server, serverClock: serverClock, clientClock: clientClock,
                baseURL: URL(string: "http://127.0.0.1:\(port)")!, logs: LogCapture())
            try await body(stack)
        }
    }

    /// A client with its own file store in `directory` (a new temporary one by default).
    func makeClient(
        directory: URL? = nil,
        launchValidation: SessionClientConfiguration.LaunchValidation = .blocking,
        automaticRefresh: Bool = false
    ) throws -> (SessionClient, URL) {
        let directory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("e2e-\(UUID().uuidString)", isDirectory: true)
        let transport = MiddlewareTransport(
            base: URLSessionTransport(), middlewares: [ServerDateMiddleware(serverClock: serverClock)])
        let configuration = SessionClientConfiguration(
            backend: .goTrue(url: baseURL, apiKey: "anon-key"),
            store: FileSessionStore(directory: directory),
            clock: clientClock,
            transport: transport,
            launchValidation: launchValidation,
            jitter: .fixed(0),
            automaticRefresh: automaticRefresh,
            logger: logs.logger())
        return (SessionClient(configuration: configuration), directory)
    }

    /// Moves both clocks forward together.
    func advance(by interval: TimeInterval) async {
        serverClock.set(to: serverClock.now.addingTimeInterval(interval))
        await clientClock.advance(by: interval)
    }

    /// Sends a raw request to the server (as an attacker or another app would).
    func raw(_ method: String, _ path: String, json: String? = nil, bearer: String? = nil) async throws -> (Int, Data) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        if let query = path.split(separator: "?", maxSplits: 1).last, path.contains("?") {
            request.url = URL(string: baseURL.absoluteString + "/" + path.split(separator: "?")[0] + "?" + query)
        }
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        request.httpBody = json.map { Data($0.utf8) }
        let (data, response) = try await URLSessionTransport().send(request)
        return (response.statusCode, data)
    }
}
