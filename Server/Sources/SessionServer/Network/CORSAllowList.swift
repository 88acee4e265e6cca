import Foundation
import Hummingbird

/// The browser origins allowed to call the API (`--cors-origins`,
/// `AUTH_SERVER_CORS_ORIGINS`): `https://app.example.com,http://localhost:3000`,
/// or `*` for any. Reflecting whatever `Origin` arrives would let every site
/// on the web drive the API from its visitors' browsers.
public struct CORSAllowList: Sendable, Hashable, CustomStringConvertible {
    /// Lowercased `scheme://host[:port]` origins.
    public let origins: Set<String>
    public let allowsAny: Bool

    public static let none = CORSAllowList(origins: [], allowsAny: false)

    init(origins: Set<String>, allowsAny: Bool) {
        self.origins = origins
        self.allowsAny = allowsAny
    }

    /// Reads a comma-separated list.
    ///
    /// - Throws: ``ConfigurationError`` naming an entry that is not an origin.
    public init(parsing text: String) throws(ConfigurationError) {
        var origins: Set<String> = []
        var allowsAny = false
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            if entry == "*" {
                allowsAny = true
                continue
            }
            let trimmed = entry.hasSuffix("/") ? String(entry.dropLast()) : entry
            guard let url = URLComponents(string: trimmed), let scheme = url.scheme?.lowercased(),
                scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty,
                url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
            else {
                throw ConfigurationError(
                    "The CORS origin '\(entry.prefix(80))' is not an origin such as https://app.example.com (scheme, host and port only).")
            }
            origins.insert(trimmed.lowercased())
        }
        self.init(origins: origins, allowsAny: allowsAny)
    }

    public func allows(_ origin: String) -> Bool { allowsAny || origins.contains(origin.lowercased()) }

    public var description: String { ((allowsAny ? ["*"] : []) + origins.sorted()).joined(separator: ",") }
}

/// Applies CORS (with `cors`) only to requests from an allowed origin; any
/// other request passes through without CORS headers, so browsers refuse it.
struct CORSAllowListMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowList: CORSAllowList
    let cors: CORSMiddleware<Context>

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let origin = request.headers[.origin], allowList.allows(origin) else {
            return try await next(request, context)
        }
        return try await cors.handle(request, context: context, next: next)
    }
}
