import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// Injects faults at the transport boundary of one process: everything
/// SessionKit sends passes through here on its way to the live server.
///
/// A fault that "reaches the server" forwards the request for real (the server
/// commits whatever it does) and then spoils the answer, which is how a
/// committed rotation with a lost response is produced.
public struct ChaosMiddleware: TransportMiddleware {
    let network: DeviceNetwork
    let process: SimulatedProcess

    public init(network: DeviceNetwork, process: SimulatedProcess) {
        self.network = network
        self.process = process
    }

    public func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        // A dead process sends nothing; an offline device reaches nothing.
        if process.isDead { throw URLError(.cancelled) }
        if network.isOffline { throw URLError(.notConnectedToInternet) }
        network.begin()
        defer { network.end() }

        if Self.isRefresh(request), process.takeRefreshKill() {
            network.count(.lostResponse)
            _ = try await next(request)
            process.kill()
            throw URLError(.timedOut)
        }
        guard let fault = network.drawFault() else { return try await next(request) }
        switch fault {
        case .refused: throw URLError(.cannotConnectToHost)
        case .stall: throw URLError(.timedOut)
        case .resetMidResponse:
            _ = try await next(request)
            throw URLError(.networkConnectionLost)
        case .lostResponse:
            _ = try await next(request)
            throw URLError(.timedOut)
        case .internalError:
            let body = #"{"success":false,"error":{"code":"INTERNAL","message":"Something went wrong."}}"#
            return try Self.response(for: request, status: 500, body: body, headers: ["Content-Type": "application/json"])
        case .badGateway:
            return try Self.response(for: request, status: 502, body: "<html><body>502 Bad Gateway</body></html>", headers: ["Content-Type": "text/html"])
        case .unavailable:
            return try Self.response(for: request, status: 503, body: "<html><body>503 Service Unavailable</body></html>", headers: ["Content-Type": "text/html"])
        case .rateLimited:
            let body = #"{"code":429,"error_code":"over_request_rate_limit","msg":"Request rate limit reached"}"#
            return try Self.response(
                for: request, status: 429, body: body, headers: ["Content-Type": "application/json", "Retry-After": "7"])
        case .truncatedBody:
            let (data, response) = try await next(request)
            return (data.prefix(data.count / 2), response)
        case .garbledBody:
            let (data, response) = try await next(request)
            return (Data(data.map { $0 ^ 0x5A }), response)
        }
    }

    static func isRefresh(_ request: URLRequest) -> Bool {
        request.url?.query?.contains("grant_type=refresh_token") == true
    }

    static func response(
        for request: URLRequest, status: Int, body: String, headers: [String: String]
    ) throws -> (Data, HTTPURLResponse) {
        guard let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw URLError(.badURL) }
        return (Data(body.utf8), response)
    }
}
