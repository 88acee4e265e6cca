import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// Rewrites each response's `Date` header to the server's injected clock.
///
/// Hummingbird stamps `Date` from the system clock, while the server under
/// test issues tokens on a manual clock; a real server's `Date` and token
/// times come from one clock, so the test restores that agreement before the
/// client estimates the server's clock offset from the header.
public struct ServerDateMiddleware: TransportMiddleware {
    let serverClock: any SessionClock

    public init(serverClock: any SessionClock) { self.serverClock = serverClock }

    public func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await next(request)
        var fields: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key] = value }
        }
        for key in fields.keys where key.lowercased() == "date" { fields[key] = nil }
        fields["Date"] = Self.httpDate(serverClock.now)
        guard let url = response.url,
            let rewritten = HTTPURLResponse(
                url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: fields)
        else { return (data, response) }
        return (data, rewritten)
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
