import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionKit
import SessionKitTesting
import SessionServer

/// One live auth server on loopback, on its own manual clock, that a group
/// of lives uses one after another (each life starts where the last ended).
struct SimulationWorld: Sendable {
    let server: AuthServer
    let serverClock: ManualClock
    let baseURL: URL
    /// Shared by every simulated process, as the loopback connection pool;
    /// faults are injected above it.
    let transport: URLSessionTransport
    let logger: Logger

    /// A client on another device, straight to the server (no faults): signs
    /// out everywhere or deletes the account.
    func otherDevice() -> SessionClient {
        SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: baseURL, apiKey: "anon-key"), store: InMemorySessionStore(), clock: serverClock,
                transport: MiddlewareTransport(base: transport, middlewares: [ServerDateMiddleware(serverClock: serverClock)]),
                launchValidation: .skip, jitter: .fixed(0), automaticRefresh: false, logger: logger))
    }
}
