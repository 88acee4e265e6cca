import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An answer from a provider endpoint.
public struct OAuthHTTPResponse: Sendable {
    public var status: Int
    public var body: Data
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// How the server calls a provider's token and user-info endpoints.
///
/// A protocol so tests can answer without a network; the default
/// (``URLSessionOAuthHTTPClient``) is what the end-to-end tests exercise
/// against a fake provider on loopback.
public protocol OAuthHTTPClient: Sendable {
    /// Sends `request`; throws only when no HTTP answer arrived (timeout, refused, cancelled).
    func send(_ request: URLRequest) async throws -> OAuthHTTPResponse
}

/// ``OAuthHTTPClient`` over Foundation's `URLSession`, with short timeouts:
/// a provider that hangs must end the person's flow with an error, not hold a
/// request (and a server task) open.
public struct URLSessionOAuthHTTPClient: OAuthHTTPClient {
    /// Largest provider answer read; anything bigger is treated as garbage.
    static let maximumBodySize = 1 << 20
    private let session: URLSession

    /// One session for the default timeouts, shared: every configuration
    /// holds a client, and a URLSession per configuration would never be released.
    private static let shared = makeSession(requestTimeout: 10, resourceTimeout: 20)

    /// - Parameters:
    ///   - requestTimeout: seconds without data before giving up.
    ///   - resourceTimeout: seconds for the whole exchange.
    public init(requestTimeout: TimeInterval = 10, resourceTimeout: TimeInterval = 20) {
        self.session =
            requestTimeout == 10 && resourceTimeout == 20
            ? Self.shared : Self.makeSession(requestTimeout: requestTimeout, resourceTimeout: resourceTimeout)
    }

    private static func makeSession(requestTimeout: TimeInterval, resourceTimeout: TimeInterval) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = resourceTimeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }

    public func send(_ request: URLRequest) async throws -> OAuthHTTPResponse {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        guard data.count <= Self.maximumBodySize else { throw URLError(.dataLengthExceedsMaximum) }
        return OAuthHTTPResponse(status: http.statusCode, body: data)
    }
}
