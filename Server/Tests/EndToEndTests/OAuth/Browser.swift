import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The person's browser, played by the test: it makes one request at a time
/// and never follows redirects, so each hop (server → Strava → server → app)
/// can be checked and replayed.
struct Browser: Sendable {
    struct Answer: Sendable {
        var status: Int
        var location: URL?
        var body: String
        var setCookie: String? = nil
    }

    /// Errors while driving the browser.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        // Cookies only where a test sends them (the account page's verifier): each hop stays inspectable.
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    func get(_ url: URL, cookie: String? = nil) async throws -> Answer {
        var request = URLRequest(url: url)
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw Failure(description: "not HTTP: \(url)") }
        return Answer(
            status: http.statusCode, location: http.value(forHTTPHeaderField: "Location").flatMap(URL.init(string:)),
            body: String(decoding: data, as: UTF8.self), setCookie: http.value(forHTTPHeaderField: "Set-Cookie"))
    }

    /// Follows redirects by hand until one leaves for a URL that is not on
    /// loopback HTTP (the app's `myapp://` redirect), or a hop answers without one.
    ///
    /// - Returns: every hop's answer, in order.
    func follow(_ start: URL, until isApp: (URL) -> Bool) async throws -> [Answer] {
        var hops: [Answer] = []
        var next = start
        for _ in 0..<6 {
            let answer = try await get(next)
            hops.append(answer)
            guard let location = answer.location, !isApp(location) else { return hops }
            next = location
        }
        throw Failure(description: "too many redirects")
    }
}

/// Refuses every redirect, so the test sees each `Location`.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
