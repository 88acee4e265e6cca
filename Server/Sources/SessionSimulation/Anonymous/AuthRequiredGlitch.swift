import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// The app's API answers `401 AUTH_REQUIRED` to a token it accepted a moment
/// before, as the gateway does when a load balancer dropped the
/// `Authorization` header on the way (no credentials: no `WWW-Authenticate`
/// error, docs/DESIGN.md's contract). One answer, never to a token the API has
/// not accepted yet: the SDK refreshes and retries with a new token, which
/// passes, so the session must survive. A second `AUTH_REQUIRED` to a freshly
/// refreshed token is the server's word and ends the session by contract,
/// which is not what this checks (issue 40, item 6).
///
/// One per process: what a process's tokens did is its own.
struct AuthRequiredGlitch: TransportMiddleware {
    static let answer = #"{"success":false,"error":{"code":"AUTH_REQUIRED","message":"You need to sign in to continue."}}"#

    let person: AnonymousPerson
    let network: DeviceNetwork
    let staleKeys: StaleKeyWindow
    let serverClock: any SessionClock
    let trace: LifeTrace
    let accepted = AcceptedToken()

    func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, let bearer = request.value(forHTTPHeaderField: "Authorization") else {
            return try await next(request)
        }
        // Only the app's API (`/v1/…`); not offline (nothing would arrive), and not while the
        // stale-JWKS row rejects tokens: its retry is a fresh token's, and two rejections in a row
        // are another row's subject. A token "worked" when anything of the server's accepted it.
        if url.path.hasPrefix("/v1/"), !network.isOffline, !staleKeys.isOpen(at: serverClock.now), accepted.was(bearer),
            person.drawAuthRequired(),
            let response = HTTPURLResponse(
                url: url, statusCode: 401, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
        {
            trace.note("the API lost the Authorization header: 401 AUTH_REQUIRED to \(url.path)")
            return (Data(Self.answer.utf8), response)
        }
        let answer = try await next(request)
        if answer.1.statusCode != 401 { accepted.remember(bearer) }
        return answer
    }
}

/// The last bearer a process's API accepted (kept in memory only, never written anywhere).
final class AcceptedToken: @unchecked Sendable {
    // `@unchecked`: `last` is touched under `lock` only.
    private let lock = NSLock()
    private var last: String?

    func remember(_ bearer: String) { lock.withLock { last = bearer } }
    func was(_ bearer: String) -> Bool { lock.withLock { last == bearer } }
}
