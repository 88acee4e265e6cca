import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// The app's API answers `401 AUTH_REQUIRED` to a token it accepted a moment
/// before, as the gateway does when a load balancer dropped the
/// `Authorization` header on the way (no credentials: no `WWW-Authenticate`
/// error, docs/DESIGN.md's contract). Never first to a token the API has not
/// accepted yet: the SDK refreshes and retries with a new token.
///
/// While the person is anonymous, half the glitches last: the retry's fresh
/// token is refused too. For any other session that is the server's word and
/// ends it by contract; an anonymous session is the only way back into its
/// account, so the SDK asks the auth server with one more refresh and keeps
/// the session unless the auth server itself ends it (docs/ACCOUNTS.md,
/// "Anonymous users (SDK)"). The app then sees the API's 401, counted apart.
///
/// One per process: what a process's tokens did is its own.
struct AuthRequiredGlitch: TransportMiddleware {
    static let answer = #"{"success":false,"error":{"code":"AUTH_REQUIRED","message":"You need to sign in to continue."}}"#

    let person: AnonymousPerson
    let network: DeviceNetwork
    let staleKeys: StaleKeyWindow
    let serverClock: any SessionClock
    let trace: LifeTrace
    let memory = GlitchMemory()

    func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, let bearer = request.value(forHTTPHeaderField: "Authorization") else {
            return try await next(request)
        }
        // Only the app's API (`/v1/…`); not offline (nothing would arrive), and not while the
        // stale-JWKS row rejects tokens: its retry is a fresh token's, another row's subject.
        // A token "worked" when anything of the server's accepted it.
        if url.path.hasPrefix("/v1/"), !network.isOffline, !staleKeys.isOpen(at: serverClock.now),
            let response = HTTPURLResponse(
                url: url, statusCode: 401, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
        {
            if memory.takeLasting(for: bearer) {
                person.lastingGlitchAnswered()
                trace.note("the API still drops the Authorization header: 401 AUTH_REQUIRED to the fresh token")
                return (Data(Self.answer.utf8), response)
            }
            if memory.accepted(bearer), person.drawAuthRequired() {
                if person.isAnonymous, person.drawLasting() { memory.lastBeyond(bearer) }
                trace.note("the API lost the Authorization header: 401 AUTH_REQUIRED to \(url.path)")
                return (Data(Self.answer.utf8), response)
            }
        }
        let answer = try await next(request)
        if answer.1.statusCode != 401 { memory.remember(bearer) }
        return answer
    }
}

/// What one process's glitch remembers: the last bearer the server accepted,
/// and the one refused by a glitch that lasts (kept in memory only, never written anywhere).
final class GlitchMemory: @unchecked Sendable {
    // `@unchecked`: the fields are touched under `lock` only.
    private let lock = NSLock()
    private var last: String?
    private var lastingAfter: String?

    func remember(_ bearer: String) { lock.withLock { last = bearer } }
    func accepted(_ bearer: String) -> Bool { lock.withLock { last == bearer } }

    /// The next request with another token (the retry's fresh one) is refused too.
    func lastBeyond(_ bearer: String) { lock.withLock { lastingAfter = bearer } }

    /// True once, for the first request after a lasting glitch that carries another token.
    /// The same token again means the refresh between failed: the glitch is over.
    func takeLasting(for bearer: String) -> Bool {
        lock.withLock {
            guard let refused = lastingAfter else { return false }
            lastingAfter = nil
            return refused != bearer
        }
    }
}
