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
    static func isSameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        guard let authority = request.head.authority, let url = URL(string: origin), let host = url.host else { return false }
        let port = url.port.map { ":\($0)" } ?? ""
        return host + port == authority || "[\(host)]" + port == authority
    }
}
