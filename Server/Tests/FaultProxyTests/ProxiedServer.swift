import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionKitFaultProxy
import SessionKitTesting
import SessionServer

/// A live auth server on loopback with a fault proxy in front of it.
struct ProxiedServer: Sendable {
    let server: AuthServer
    let clock: ManualClock
    let proxy: FaultProxy
    let serverURL: URL

    static func run(
        plan: FaultPlan = .fromHeader, _ body: @escaping @Sendable (ProxiedServer) async throws -> Void
    ) async throws {
        let clock = ManualClock()
        var quiet = Logger(label: "fault-proxy-tests")
        quiet.logLevel = .critical
        let server = try await AuthServer(configuration: .testing(clock: clock), logger: quiet)
        try await server.withRunningServer { baseURL in
            try await FaultProxy.withProxy(upstream: baseURL, plan: plan) { proxy in
                try await body(ProxiedServer(server: server, clock: clock, proxy: proxy, serverURL: baseURL))
            }
        }
    }

    /// Sends `path` through the proxy with `fault` named in its header.
    func send(
        _ path: String, method: String = "GET", body: String? = nil, fault: ProxyFault? = nil,
        transport: URLSessionTransport
    ) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: proxy.url.absoluteString + path)!)
        request.httpMethod = method
        request.setValue("anon-key", forHTTPHeaderField: "apikey")
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let fault { request.setValue(fault.name, forHTTPHeaderField: FaultProxy.faultHeader) }
        return try await transport.send(request)
    }
}
