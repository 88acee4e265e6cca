import Foundation
import Hummingbird
import NIOCore

/// A posted HTML form (`application/x-www-form-urlencoded`), capped at 16 KiB.
struct WebForm: Sendable {
    let fields: [String: String]

    subscript(name: String) -> String? { fields[name] }

    static func read(_ request: Request) async throws -> WebForm {
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: 16 * 1024)
        } catch is NIOTooManyBytesError {
            throw AuthError.payloadTooLarge
        }
        var components = URLComponents()
        components.percentEncodedQuery = String(buffer: body).replacingOccurrences(of: "+", with: "%20")
        var fields: [String: String] = [:]
        for item in components.queryItems ?? [] where fields[item.name] == nil { fields[item.name] = item.value ?? "" }
        return WebForm(fields: fields)
    }

    /// True when the request came from this server's own page: the form's
    /// CSRF token matches the browser's, and an `Origin` header, if any,
    /// names this server. Either alone would do; both cost nothing.
    ///
    /// - Parameter externalURL: this server's public root, when configured:
    ///   then scheme, host and port must all match it, so a page served over
    ///   plain http cannot post to the https pages (issue 29, item 10).
    ///   Without it the scheme is unknown here (a proxy may end TLS) and only
    ///   host and port are compared.
    static func isSameOrigin(_ request: Request, externalURL: URL? = nil) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
            scheme == "https" || scheme == "http"
        else { return false }
        if let externalURL {
            let expectedScheme = externalURL.scheme?.lowercased()
            return scheme == expectedScheme && host == externalURL.host?.lowercased()
                && (url.port ?? defaultPort(scheme)) == (externalURL.port ?? defaultPort(expectedScheme))
        }
        guard let authority = request.head.authority?.lowercased() else { return false }
        let port = url.port.map { ":\($0)" } ?? ""
        return host + port == authority || "[\(host)]" + port == authority
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }
}
