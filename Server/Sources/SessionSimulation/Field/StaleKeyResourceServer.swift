import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// A resource server with a stale JWKS (issue 31, row 3): after the auth
/// server rotated its signing key, the app's API still holds the old key set
/// and answers 401 to every token for ten minutes, fresh ones included.
///
/// The app's API here is the gateway (`/v1/…`); the auth server's own routes
/// (`/auth/v1/…`) sign with the new key and are not affected. The answer is
/// PostgREST's for a signature it cannot verify.
struct StaleKeyResourceServer: TransportMiddleware {
    static let answer = #"{"code":"PGRST301","details":null,"hint":null,"message":"JWSError JWSInvalidSignature"}"#

    let window: StaleKeyWindow
    let serverClock: any SessionClock
    let trace: LifeTrace

    func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        let now = serverClock.now
        if ChaosMiddleware.isRefresh(request) { window.refreshSent(at: now) }
        guard let url = request.url, url.path.hasPrefix("/v1/"), request.value(forHTTPHeaderField: "Authorization") != nil,
            window.isOpen(at: now),
            let response = HTTPURLResponse(
                url: url, statusCode: 401, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
        else { return try await next(request) }
        window.rejected()
        trace.note("resource server with a stale JWKS: 401 to \(url.path)")
        return (Data(Self.answer.utf8), response)
    }
}

/// The ten minutes after a signing-key rotation in which the resource server
/// rejects every token, and what the device did meanwhile.
final class StaleKeyWindow: @unchecked Sendable {
    // `@unchecked`: every field is touched under `lock`.
    private let lock = NSLock()
    private var until: Date?
    private var refreshes = 0
    private var rejections = 0
    private var requests = 0

    /// How long the resource server keeps the stale key set.
    static let length: TimeInterval = 600

    func open(at now: Date) { lock.withLock { until = now.addingTimeInterval(Self.length) } }
    func isOpen(at now: Date) -> Bool { lock.withLock { until.map { now < $0 } ?? false } }
    func refreshSent(at now: Date) { lock.withLock { if let until, now < until { refreshes += 1 } } }
    func rejected() { lock.withLock { rejections += 1 } }
    /// An app request made while the window was open.
    func appRequest() { lock.withLock { requests += 1 } }

    /// Refreshes sent in windows, 401s the resource server answered, app requests made in windows.
    var counts: (refreshes: Int, rejections: Int, requests: Int) { lock.withLock { (refreshes, rejections, requests) } }
}
