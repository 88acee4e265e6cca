import Foundation
import Hummingbird
import ServiceLifecycle

extension AuthServer {
    /// Runs the server on its configured host and port (port 0 picks a free
    /// one) while `body` runs, then shuts it down gracefully.
    ///
    /// For in-process end-to-end tests: the base URL passed to `body` is the
    /// server root (GoTrue lives under `/auth/v1`, the gateway under `/v1`).
    ///
    /// - Throws: what `body` throws, or the server's start-up error.
    public func withRunningServer<T: Sendable>(_ body: @Sendable (URL) async throws -> T) async throws -> T {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = makeApplication { port in continuation.yield(port) }
        let serviceGroup = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }
                try await serviceGroup.run()
            }
            guard let port = await ports.first(where: { _ in true }) else {
                // The server stopped before listening: surface its error.
                try await group.waitForAll()
                throw ConfigurationError("The auth server stopped before it started listening.")
            }
            let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
            guard let url = URL(string: "http://\(host):\(port)") else {
                await serviceGroup.triggerGracefulShutdown()
                throw ConfigurationError("The host \(configuration.host) does not form a URL.")
            }
            let result: T
            do {
                result = try await body(url)
            } catch {
                await serviceGroup.triggerGracefulShutdown()
                try await group.waitForAll()
                throw error
            }
            await serviceGroup.triggerGracefulShutdown()
            try await group.waitForAll()
            return result
        }
    }
}
