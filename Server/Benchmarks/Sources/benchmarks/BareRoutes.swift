import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import SessionCore
import SessionServer

/// Item 3's yardsticks: a bare Hummingbird application (no middleware) with
///
/// - `GET /ceiling`: a constant body, no database: the framework's own
///   ceiling on this core;
/// - `GET /v1/auth/me`: the real route's handler without authentication, the
///   same `store.currentUser(id:now:)` read and JSON envelope for a fixed
///   user, so that the real route's rate over this one is the cost of auth.
enum BareRoutes {
    static func run(store: AuthStore, userID: String, _ body: @Sendable (URL) async throws -> Void) async throws {
        struct Envelope: Encodable {
            let success: Bool
            let data: SessionUser
        }
        let router = Router()
        router.get("ceiling") { _, _ -> String in
            #"{"success":true}"#
        }
        router.get("v1/auth/me") { _, _ -> String in
            guard let user = try await store.currentUser(id: userID, now: Date()) else { throw HTTPError(.notFound) }
            let data = try WireCoding.encoder().encode(Envelope(success: true, data: user.sessionUser))
            return String(decoding: data, as: UTF8.self)
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let logger = Bench.quietLogger("bench-bare")
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            guard let port = await ports.first(where: { _ in true }), let url = URL(string: "http://127.0.0.1:\(port)") else {
                throw BenchError("the bare routes did not start")
            }
            do {
                try await body(url)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
