import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// Rewrites each response's `Date` header to the server's injected clock.
///
/// Hummingbird stamps `Date` from the system clock, while a server under test
/// issues tokens on a manual clock; a real server's `Date` and token times
/// come from one clock, so this restores that agreement before the client
/// estimates the server's clock offset from the header. Put it in front of a
/// real transport when the client talks to an in-process server on a
/// ``ManualClock``.
public struct ServerDateMiddleware: TransportMiddleware {
    let serverClock: any SessionClock

    public init(serverClock: any SessionClock) { self.serverClock = serverClock }

    public func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await next(request)
        var fields: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String, key.lowercased() != "date" { fields[key] = value }
        }
        fields["Date"] = ServerClockOffset.formatHTTPDate(serverClock.now)
        guard let url = response.url,
            let rewritten = HTTPURLResponse(
                url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: fields)
        else { return (data, response) }
        return (data, rewritten)
    }
}
