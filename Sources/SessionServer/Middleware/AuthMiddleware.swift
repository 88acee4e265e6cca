import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// Protects routes with SessionKit's 401 contract; reusable by any Hummingbird app.
///
/// - Missing credentials → ``AuthError/authRequired(_:credentialsSent:)`` without `WWW-Authenticate`.
/// - A garbage header, a malformed, unsigned or badly signed token, the wrong
///   `aud`/`iss` → `AUTH_REQUIRED` with `WWW-Authenticate: Bearer error="invalid_token"`.
/// - A token expired beyond the leeway, or whose session was revoked → `SESSION_EXPIRED`.
///
/// Errors are thrown as ``AuthError``, which answers in the gateway envelope
/// unless an outer middleware maps it (the GoTrue routes do).
public struct AuthMiddleware<Context: AuthenticatedRequestContext>: RouterMiddleware {
    let verifier: AccessTokenVerifier
    let sessions: (any SessionValidator)?
    let clock: any SessionClock

    /// - Parameters:
    ///   - verifier: checks signatures and claims (local keys or a remote JWKS).
    ///   - sessions: checks the token's session is still live; `nil` trusts the token alone.
    ///   - clock: the time expiry is judged against.
    public init(verifier: AccessTokenVerifier, sessions: (any SessionValidator)?, clock: any SessionClock = SystemClock()) {
        self.verifier = verifier
        self.sessions = sessions
        self.clock = clock
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let token = try Self.bearerToken(in: request.headers)
        let now = clock.now
        let verified = try await verifier.verify(token, now: now)
        if let sessions {
            guard let sessionID = verified.sessionID else {
                throw AuthError.authRequired("token has no session_id", credentialsSent: true)
            }
            let active: Bool
            do {
                active = try await sessions.isSessionActive(sessionID: sessionID, userID: verified.userID, now: now)
            } catch {
                // The store is unreachable: a server fault, never a reason to end a session.
                throw AuthError.internalFailure
            }
            guard active else { throw AuthError.sessionRevoked }
        }
        var context = context
        context.identity = AuthenticatedIdentity(userID: verified.userID, sessionID: verified.sessionID, token: verified)
        return try await next(request, context)
    }

    /// The token of an `Authorization: Bearer …` header.
    ///
    /// - Throws: ``AuthError/authRequired(_:credentialsSent:)``; `credentialsSent` is true whenever a header was present.
    static func bearerToken(in headers: HTTPFields) throws -> String {
        guard let value = headers[.authorization] else {
            throw AuthError.authRequired("no credentials", credentialsSent: false)
        }
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
            throw AuthError.authRequired("the Authorization header is not a Bearer token", credentialsSent: true)
        }
        return String(parts[1])
    }
}
