import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// Every request the processes of one device event sent, with the tokens it
/// carried, and which session each token the server issued belongs to: what
/// a row's invariant is counted from ("one `/token` call per token", "never
/// an ended session's token").
final class WireLog: @unchecked Sendable {
    struct Sent: Sendable {
        let process: String
        let path: String
        /// The bearer access token, if any.
        let bearer: String?
        /// The refresh token of a refresh request, if this was one.
        let refreshToken: String?
    }

    // Everything below is read and written under `lock`.
    private let lock = NSLock()
    private var sent: [Sent] = []
    private var sessionOfRefreshToken: [String: String] = [:]
    private var offline: Set<String> = []
    private var inFlight = 0

    var requests: [Sent] { lock.withLock { sent } }
    var requestsInFlight: Int { lock.withLock { inFlight } }

    /// The process's requests fail as offline from now on (or work again).
    func setOffline(_ process: String, _ isOffline: Bool) {
        lock.withLock {
            if isOffline { offline.insert(process) } else { offline.remove(process) }
        }
    }

    /// The session (the JWT's `session_id`) a refresh token was issued for, if the log saw it issued.
    func session(ofRefreshToken token: String) -> String? { lock.withLock { sessionOfRefreshToken[token] } }

    /// How many refresh requests presented each refresh token.
    var refreshPresentations: [String: Int] {
        lock.withLock {
            sent.compactMap(\.refreshToken).reduce(into: [:]) { $0[$1, default: 0] += 1 }
        }
    }

    /// A middleware that logs `process`'s requests in this log.
    func tap(_ process: String) -> any TransportMiddleware { Tap(process: process, log: self) }

    fileprivate func record(_ entry: Sent) -> Bool {
        lock.withLock {
            sent.append(entry)
            if offline.contains(entry.process) { return false }
            inFlight += 1
            return true
        }
    }

    fileprivate func answered(_ body: Data) {
        lock.withLock { inFlight -= 1 }
        // A session's tokens, as `/token` and `/signup` answer them; any other answer names none.
        guard let tokens = Self.decode(IssuedTokens.self, from: body),
            let session = Self.sessionID(ofAccessToken: tokens.access_token)
        else { return }
        lock.withLock { sessionOfRefreshToken[tokens.refresh_token] = session }
    }

    private struct IssuedTokens: Decodable {
        let access_token: String
        let refresh_token: String
    }

    struct RefreshGrant: Decodable {
        let refresh_token: String
    }

    /// The recorded body as `T`, or `nil` for a body of another shape: the wire
    /// carries more than tokens, and only tokens are recorded.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data) -> T? {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            return nil
        }
    }

    fileprivate func failed() { lock.withLock { inFlight -= 1 } }

    /// The `session_id` claim of an access token (unverified: the server's own token, read back).
    static func sessionID(ofAccessToken token: String) -> String? {
        do {
            return try UnverifiedJWT(token).claims.sessionId
        } catch {
            // Not a JWT (a bearer the harness did not issue): it names no session.
            return nil
        }
    }
}

private struct Tap: TransportMiddleware {
    let process: String
    let log: WireLog

    func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        let bearer = request.value(forHTTPHeaderField: "Authorization").flatMap { header in
            header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : nil
        }
        var refreshToken: String?
        if request.url?.query?.contains("grant_type=refresh_token") == true, let body = request.httpBody {
            refreshToken = WireLog.decode(WireLog.RefreshGrant.self, from: body)?.refresh_token
        }
        let entry = WireLog.Sent(
            process: process, path: request.url?.path ?? "", bearer: bearer, refreshToken: refreshToken)
        guard log.record(entry) else { throw URLError(.notConnectedToInternet) }
        do {
            let (data, response) = try await next(request)
            log.answered(data)
            return (data, response)
        } catch {
            log.failed()
            throw error
        }
    }
}
