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
        window.rejected(request: request.value(forHTTPHeaderField: StaleKeyWindow.requestHeader))
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
    /// 401s per app request, by the id ``AppLife/makeRequest()`` gave it.
    private var perRequest: [String: Int] = [:]

    /// The header naming the app request a send belongs to: the SDK keeps the
    /// app's headers on its retries, so every send of one request carries it.
    static let requestHeader = "X-Simulation-Request"
    /// Sends of one app request the resource may see: the first, the retry
    /// after the forced refresh, and a second retry when that refresh adopted
    /// a stored token (docs/RELIABILITY.md, row 3).
    static let sendsPerRequest = 3

    /// How long the resource server keeps the stale key set.
    static let length: TimeInterval = 600

    func open(at now: Date) { lock.withLock { until = now.addingTimeInterval(Self.length) } }
    func isOpen(at now: Date) -> Bool { lock.withLock { until.map { now < $0 } ?? false } }
    func refreshSent(at now: Date) { lock.withLock { if let until, now < until { refreshes += 1 } } }
    func rejected(request id: String?) {
        lock.withLock {
            rejections += 1
            if let id { perRequest[id, default: 0] += 1 }
        }
    }

    /// 401s beyond ``sendsPerRequest`` for any one app request. Counted per
    /// request, not over the life: a life's requests that never reach the
    /// resource (`/auth/v1/user`, a refresh that failed first) would otherwise
    /// leave room for another request's extra sends, and a planted defect that
    /// retries too often went unseen with some seeds.
    var excessSends: Int { lock.withLock { perRequest.values.reduce(0) { $0 + max(0, $1 - Self.sendsPerRequest) } } }
    /// An app request made while the window was open.
    func appRequest() { lock.withLock { requests += 1 } }

    /// Refreshes sent in windows, 401s the resource server answered, app requests made in windows.
    var counts: (refreshes: Int, rejections: Int, requests: Int) { lock.withLock { (refreshes, rejections, requests) } }
}
