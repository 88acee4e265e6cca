import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// Lets through only the service-role key (`auth-server keys service-role`):
/// a valid signature with `role: service_role`. Any other token is GoTrue's
/// 403 `not_admin`; no token is 401.
struct AdminMiddleware: RouterMiddleware {
    typealias Context = AuthRequestContext
    let verifier: AccessTokenVerifier
    let clock: any SessionClock

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let token = try AuthMiddleware<Context>.bearerToken(in: request.headers)
        let verified = try await verifier.verify(token, now: clock.now)
        // A person's access token is valid, and still not an operator's.
        guard verified.claims.role == ServiceRoleClaims.role, verified.sessionID == nil else { throw AuthError.notAdmin }
        return try await next(request, context)
    }
}
