import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// The default transport: its own `URLSession` (never `URLSession.shared`),
/// with docs/DESIGN.md's 30 s request and 60 s resource timeouts.
///
/// It never follows a redirect: a 307 or 308 would replay the request — a
/// refresh token, a password, an `Authorization` header — to whatever host
/// the `Location` names. The 3xx answer is returned as it is; the client
/// reads it as a refusal on auth requests and follows it itself, token
/// attached, only inside ``SessionClientConfiguration/authorizedOrigins``
/// (``SessionClient/send(_:)``).
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    // `URLSession` is thread-safe; the class is immutable after init.
    public let session: URLSession
    /// Only a session this transport created is invalidated with it.
    private let ownsSession: Bool

    /// Creates a transport with its own ephemeral session.
    ///
    /// Ephemeral: no cookie or URL cache on disk, since auth responses hold tokens.
    public init(
        requestTimeout: TimeInterval = SessionDefaults.requestTimeout,
        resourceTimeout: TimeInterval = SessionDefaults.resourceTimeout
    ) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.effectiveTimeout(requestTimeout)
        configuration.timeoutIntervalForResource = Self.effectiveTimeout(resourceTimeout)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        // The delegate is the session's (kept until the session is invalidated, in deinit).
        self.session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
        self.ownsSession = true
    }

    /// The timeout URLSession is given for `requested`.
    ///
    /// FoundationNetworking (Linux) hands libcurl whole seconds: asked for 0.5 s,
    /// it fails every request at once with `URLError.timedOut`, even against a
    /// server that answers in a millisecond. Rounding up keeps a short timeout
    /// short without turning it into no chance at all.
    static func effectiveTimeout(_ requested: TimeInterval) -> TimeInterval {
        #if canImport(FoundationNetworking)
        return requested > 0 ? max(1, requested.rounded(.up)) : requested
        #else
        return requested
        #endif
    }

    /// Uses a session the app configured itself.
    ///
    /// Redirects are refused for each request through a task delegate
    /// (`data(for:delegate:)`); a delegate of the app's session that also
    /// answers `willPerformHTTPRedirection` is not consulted for them on Apple
    /// platforms, where the task's delegate comes first
    /// (https://developer.apple.com/documentation/foundation/urlsession/3767352-data).
    /// On Linux, FoundationNetworking does not consult a task delegate for
    /// redirects (measured: it followed a 308 with the `Authorization`
    /// header): there, give the session a delegate that refuses them, or use ``init(requestTimeout:resourceTimeout:)``.
    public init(session: URLSession) {
        self.session = session
        self.ownsSession = false
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request, delegate: RedirectRefusal())
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }

    /// Answers every redirect with `nil`: "the body of the redirect response"
    /// is returned instead of following it
    /// (https://developer.apple.com/documentation/foundation/urlsessiontaskdelegate/1411626-urlsession).
    final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        // Stateless; `@unchecked` only because `NSObject` is not `Sendable`.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    deinit {
        // A session keeps its delegate queue alive until invalidated; an
        // app's own session is the app's to invalidate.
        if ownsSession { session.finishTasksAndInvalidate() }
    }
}
