import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// GoTrue's `/factors` routes (docs/MFA.md), behind ``AuthMiddleware``.
struct FactorRoutes: Sendable {
    let factors: FactorService
    /// Per client IP: GoTrue limits challenges and verifications on top of the account's guessing budget.
    let challengeLimiter: any RateLimiting
    let verifyLimiter: any RateLimiting
    /// DPoP binding of the session the verify answers (docs/DPOP.md); `nil` binds nothing.
    var dpop: DPoPGate? = nil

    func register(on group: RouterGroup<AuthRequestContext>) {
        group.post("factors") { request, context in
            let identity = try context.requireIdentity()
            try await factors.sessions.requireNotAnonymous(identity)
            let body = try await RequestDecoding.decode(EnrollFactorRequest.self, from: request)
            return try JSONResponse.make(try await factors.enroll(body, identity: identity, ip: clientIP(request, context)))
        }
        group.post("factors/:factor_id/challenge") { request, context in
            let identity = try context.requireIdentity()
            try await limit(challengeLimiter, request, context)
            let id = try context.parameters.require("factor_id")
            return try JSONResponse.make(try await factors.challenge(factorID: id, identity: identity, ip: clientIP(request, context)))
        }
        group.post("factors/:factor_id/verify") { request, context in
            let identity = try context.requireIdentity()
            try await limit(verifyLimiter, request, context)
            let id = try context.parameters.require("factor_id")
            let body = try await RequestDecoding.decode(VerifyFactorRequest.self, from: request)
            // AuthMiddleware checked the proof (with the token's ath): one check per request, or its jti replays.
            let binding = try dpop?.grantBinding(verifiedByMiddleware: identity.dpopJKT)
            return try JSONResponse.make(
                try await factors.verify(factorID: id, body, identity: identity, ip: clientIP(request, context), binding: binding))
        }
        group.delete("factors/:factor_id") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.require("factor_id")
            return try JSONResponse.make(try await factors.unenroll(factorID: id, identity: identity, ip: clientIP(request, context)))
        }
    }

    /// The client's address as ``ClientAddressMiddleware`` resolved it (behind a trusted proxy, the forwarded one).
    private func clientIP(_ request: Request, _ context: AuthRequestContext) -> String? { context.clientIP }

    private func limit(_ limiter: any RateLimiting, _ request: Request, _ context: AuthRequestContext) async throws {
        let key = context.clientRateLimitKey
        if case .limited(let seconds) = try await limiter.attempt(key) { throw AuthError.rateLimited(retryAfter: seconds) }
    }
}

/// `/auth/v1/admin/users/{id}/factors`, as GoTrue: list a user's factors, delete one.
struct AdminFactorRoutes: Sendable {
    let store: AuthStore
    let clock: any SessionClock
    let ip: @Sendable (Request, AuthRequestContext) -> String?

    func register(on group: RouterGroup<AuthRequestContext>) {
        group.get("users/:id/factors") { _, context in
            let userID = try context.parameters.require("id")
            guard try await store.user(id: userID) != nil else { throw AuthError.notFound }
            return try JSONResponse.make(try await store.factors(userID: userID).map(\.userFactor))
        }
        group.delete("users/:id/factors/:factor_id") { request, context in
            let userID = try context.parameters.require("id")
            let factorID = try context.parameters.require("factor_id").lowercased()
            // GoTrue answers with the factor deleted.
            guard let factor = try await store.factor(id: factorID, userID: userID),
                try await store.deleteFactor(
                    id: factorID, userID: userID, actor: ServiceRoleClaims.role, ip: ip(request, context), now: clock.now)
            else { throw AuthError.mfaFactorNotFound }
            return try JSONResponse.make(factor.userFactor)
        }
    }
}
