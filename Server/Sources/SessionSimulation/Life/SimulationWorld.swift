import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionKit
import SessionKitFaultProxy
import SessionKitTesting
import SessionServer

/// One live auth server on loopback, on its own manual clock, behind a fault
/// proxy, that a group of lives uses one after another (each life starts
/// where the last ended).
struct SimulationWorld: Sendable {
    let server: AuthServer
    let serverClock: ManualClock
    /// The server itself, for what happens on other devices (no faults).
    let serverURL: URL
    /// The proxy in front of the server: where the simulated apps send everything.
    let proxy: FaultProxy
    /// Shared by every simulated process, as the loopback connection pool;
    /// faults are drawn above it and injected by the proxy below it. Its
    /// request timeout is short: it is what a stall costs.
    let transport: URLSessionTransport
    /// Standard timeouts, for requests on a clean network (see `DeviceTransport`).
    let cleanTransport: URLSessionTransport
    let logger: Logger

    /// A client on another device, straight to the server (no faults): signs
    /// out everywhere or deletes the account.
    func otherDevice() -> SessionClient {
        SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: serverURL, apiKey: "anon-key"), store: InMemorySessionStore(), clock: serverClock,
                transport: MiddlewareTransport(base: cleanTransport, middlewares: [ServerDateMiddleware(serverClock: serverClock)]),
                launchValidation: .skip, jitter: .fixed(0), automaticRefresh: false, logger: logger))
    }
}
