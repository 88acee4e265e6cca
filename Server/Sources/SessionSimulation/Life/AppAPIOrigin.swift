import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// The app's own API at an origin of its own (issue 44).
///
/// `send` to one of the app's authorized origins with a valid token goes
/// beside the client actor, and a 401 met there must still reach the engine
/// (the planted `fast-path-skips-rejection` hands it to the app instead). This
/// is the same gateway behind the same proxy, reached under another name: as
/// the outermost middleware it puts the proxy's origin back, so the client
/// sees a separate origin while every fault, `Date` and field middleware
/// below it sees the proxy's, as for any other request.
struct AppAPIOrigin: TransportMiddleware {
    static let origin = URL(string: "https://api.app.sessionkit.test")!
    let proxy: URL

    func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, url.host == Self.origin.host,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let target = URLComponents(url: proxy, resolvingAgainstBaseURL: false)
        else { return try await next(request) }
        components.scheme = target.scheme
        components.host = target.host
        components.port = target.port
        let prefix = target.path.hasSuffix("/") ? String(target.path.dropLast()) : target.path
        components.path = prefix + components.path
        var rewritten = request
        rewritten.url = components.url
        return try await next(rewritten)
    }
}
