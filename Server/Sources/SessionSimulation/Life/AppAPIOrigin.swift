import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// The app's own API at an origin of its own (issue 44).
///
/// `send` to one of the app's authorized origins with a valid token goes
/// beside the client actor, and a 401 met there must still reach the engine
/// (the planted `fast-path-skips-rejection` hands it to the app instead). This
/// is the same gateway behind the same proxy, reached under another name: as
/// the outermost middleware it puts the proxy's origin back, so the client
/// sees a separate origin while every fault, `Date` and field middleware
/// below it sees the proxy's, as for any other request. In the targeted
/// world it also answers each life's one ``AppOriginRejection``.
struct AppAPIOrigin: TransportMiddleware {
    static let origin = URL(string: "https://api.app.sessionkit.test")!
    /// Set on a request this middleware rewrote, for ``ChaosMiddleware`` (which
    /// removes it): the answer's `Date` is not the auth server's clock to the
    /// client, which learns that clock from the auth server's origin only.
    static let marker = "X-Simulation-App-Origin"
    let proxy: URL
    /// The life's one refusal, nil outside the targeted world.
    var rejection: AppOriginRejection?
    /// When the refusal would be another row's: offline (nothing arrives) or a stale JWKS (its own 401s).
    var network: DeviceNetwork?
    var staleKeys: StaleKeyWindow?
    var serverClock: (any SessionClock)?
    var trace: LifeTrace?

    func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        let bearer = request.value(forHTTPHeaderField: "Authorization")
        guard let url = request.url, url.host == Self.origin.host,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let target = URLComponents(url: proxy, resolvingAgainstBaseURL: false)
        else { return try await next(request) }
        if let refused = refuse(request, bearer: bearer) { return refused }
        components.scheme = target.scheme
        components.host = target.host
        components.port = target.port
        let prefix = target.path.hasSuffix("/") ? String(target.path.dropLast()) : target.path
        components.path = prefix + components.path
        var rewritten = request
        rewritten.url = components.url
        rewritten.setValue("1", forHTTPHeaderField: Self.marker)
        let answer = try await next(rewritten)
        if let rejection, let bearer, (200..<300).contains(answer.1.statusCode) { rejection.accepted(bearer) }
        return answer
    }

    /// The life's one 401 to a token the API accepted before, when it is this request's.
    private func refuse(_ request: URLRequest, bearer: String?) -> (Data, HTTPURLResponse)? {
        guard let rejection, let bearer, let url = request.url else { return nil }
        if network?.isOffline == true { return nil }
        if let staleKeys, let serverClock, staleKeys.isOpen(at: serverClock.now) { return nil }
        guard rejection.take(for: bearer),
            let response = HTTPURLResponse(
                url: url, statusCode: 401, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
        else { return nil }
        trace?.note("the app's API lost the Authorization header: 401 AUTH_REQUIRED to \(url.path) (its own origin)")
        return (Data(AuthRequiredGlitch.answer.utf8), response)
    }
}
