import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// GoTrue's per-IP limiter of `/token` (issue 31, row 1), as
/// `internal/api/api.go` builds it: `tollbooth.NewLimiter(RateLimitTokenRefresh/(60*5))`
/// with `SetBurst(30)` and the default `GOTRUE_RATE_LIMIT_TOKEN_REFRESH` of
/// 150: a token bucket of 30 refilled at 0.5 a second, one bucket for every
/// grant (password sign-ins and refreshes alike), a refused request taking
/// no token. The refusal is `429 {"code":429,"error_code":"over_request_rate_limit",…}`
/// with no `Retry-After`.
///
/// Every device of the herd sits behind one NAT address, so they share it.
final class GoTrueTokenLimiter: @unchecked Sendable {
    static let answer = #"{"code":429,"error_code":"over_request_rate_limit","msg":"Request rate limit reached"}"#
    static let burst = 30.0
    static let perSecond = 150.0 / 300

    // `@unchecked`: every field is touched under `lock`.
    private let lock = NSLock()
    private let clock: any SessionClock
    private var tokens = burst
    private var last: Date
    private var started: Date
    private var inFlight = 0
    /// Each device's `/token` calls: seconds since the start, and whether it was let through.
    private var calls: [Int: [(at: TimeInterval, allowed: Bool)]] = [:]

    init(clock: any SessionClock) {
        self.clock = clock
        self.last = clock.now
        self.started = clock.now
    }

    /// A full bucket, and the clock of the calls starts now.
    func start() { lock.withLock { tokens = Self.burst; last = clock.now; started = clock.now; calls = [:] } }

    var requestsInFlight: Int { lock.withLock { inFlight } }
    var callsByDevice: [Int: [(at: TimeInterval, allowed: Bool)]] { lock.withLock { calls } }

    /// Whether a `/token` call of `device` passes now (and counts it).
    fileprivate func admit(device: Int) -> Bool {
        lock.withLock {
            let now = clock.now
            tokens = min(Self.burst, tokens + max(0, now.timeIntervalSince(last)) * Self.perSecond)
            last = now
            let allowed = tokens >= 1
            if allowed { tokens -= 1 }
            calls[device, default: []].append((now.timeIntervalSince(started), allowed))
            return allowed
        }
    }

    fileprivate func begin() { lock.withLock { inFlight += 1 } }
    fileprivate func end() { lock.withLock { inFlight -= 1 } }

    /// One device's way through the shared address.
    func device(_ index: Int) -> any TransportMiddleware { Door(limiter: self, device: index) }

    private struct Door: TransportMiddleware {
        let limiter: GoTrueTokenLimiter
        let device: Int

        func intercept(
            _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
        ) async throws -> (Data, HTTPURLResponse) {
            limiter.begin()
            defer { limiter.end() }
            guard let url = request.url, url.path.hasSuffix("/token") else { return try await next(request) }
            if limiter.admit(device: device) { return try await next(request) }
            guard let response = HTTPURLResponse(
                url: url, statusCode: 429, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
            else { return try await next(request) }
            return (Data(GoTrueTokenLimiter.answer.utf8), response)
        }
    }
}
