import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// The app API under `/v1`: profile, devices and the sample activities
/// resource. Every route sits behind ``AuthMiddleware``; every row is
/// scoped to the caller, so another user's row is a 404.
struct GatewayRoutes: Sendable {
    let store: AuthStore
    let clock: any SessionClock
    let presence: PresenceCheck

    func register(on group: RouterGroup<AuthRequestContext>) {
        group.get("auth/me") { _, context in
            let identity = try context.requireIdentity()
            guard let user = try await store.currentUser(id: identity.userID, now: clock.now) else { throw AuthError.sessionRevoked }
            return try JSONResponse.success(user.sessionUser)
        }
        group.patch("auth/me") { request, context in
            let identity = try context.requireIdentity()
            let update = try await RequestDecoding.decode(ProfileUpdate.self, from: request)
            var merge = update.metadata ?? [:]
            if let firstName = update.firstName {
                let trimmed = firstName.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, trimmed.count <= 100 else {
                    throw AuthError.invalidRequest(field: "first_name", "first_name must be 1 to 100 characters.")
                }
                merge["first_name"] = .string(trimmed)
            }
            let user = try await store.mergeUserMetadata(id: identity.userID, metadata: merge, now: clock.now)
            return try JSONResponse.success(user.sessionUser)
        }
        group.delete("auth/me") { request, context in
            let identity = try context.requireIdentity()
            let body = try await RequestDecoding.decodeIfPresent(AccountDeletion.self, from: request)
            guard let user = try await store.user(id: identity.userID) else { throw AuthError.sessionRevoked }
            // Once a second factor is verified, deleting the account needs it too: 403 MFA_REQUIRED (docs/MFA.md).
            try await AssuranceGate(store: store).requireAAL2IfEnrolled(identity, status: 403, GatewayError.mfaRequiredMessage)
            try await presence.require(
                identity, user: user, currentPassword: body?.currentPassword, nonce: body?.nonce, ip: clientIP(request, context))
            try await store.deleteUser(
                id: identity.userID, audit: AuditActor(actor: identity.userID, ip: clientIP(request, context), now: clock.now))
            return try JSONResponse.success(["deleted": true])
        }
        group.get("sessions") { _, context in
            let identity = try context.requireIdentity()
            let sessions = try await store.activeSessions(userID: identity.userID, now: clock.now)
            return try JSONResponse.success(
                sessions.map {
                    DeviceSession(
                        id: $0.id, createdAt: $0.createdAt, lastRefreshedAt: $0.refreshedAt, userAgent: $0.userAgent,
                        ip: $0.ip, current: $0.id == identity.sessionID)
                })
        }
        group.delete("sessions/:id") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.require("id")
            if id != identity.sessionID {
                // Another device: the proof `/account` asks for (issue 37, item 8). Its own session needs none.
                guard let user = try await store.user(id: identity.userID) else { throw AuthError.sessionRevoked }
                let proof = try await RequestDecoding.decodeIfPresent(PresenceProof.self, from: request)
                try await presence.require(
                    identity, user: user, currentPassword: proof?.currentPassword, nonce: proof?.nonce,
                    ip: clientIP(request, context))
            }
            guard try await store.revokeSession(id: id, userID: identity.userID, reason: "logout", now: clock.now) else {
                throw AuthError.notFound
            }
            return try JSONResponse.success(["revoked": true])
        }
        ActivityRoutes(store: store, clock: clock).register(on: group)
    }
}

extension GatewayRoutes {
    /// The client's address for audit entries, as ``ClientAddressMiddleware`` resolved it.
    func clientIP(_ request: Request, _ context: AuthRequestContext) -> String? { context.clientIP }
}

/// `DELETE /v1/auth/me` body, optional: the proof of presence when the session signed in too long ago.
