import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SessionCore

/// `/auth/v1/passkeys`, GoTrue's routes (docs/PASSKEYS.md), and the
/// apple-app-site-association an iOS app needs to use the RP ID.
/// Off (`--passkeys` not given), every passkey route answers GoTrue's 404 `passkey_disabled`.
struct PasskeyRoutes: Sendable {
    /// `nil` when passkeys are off.
    let service: PasskeyService?
    let authMiddleware: AuthMiddleware<AuthRequestContext>
    /// `POST /passkeys/authentication/options` per client IP (GoTrue's 30 a minute).
    let optionsLimiter: any RateLimiting
    let association: AppleAppSiteAssociation?
    /// DPoP binding of the session a passkey sign-in answers (docs/DPOP.md).
    var dpop: DPoPGate? = nil

    func register(on goTrue: RouterGroup<AuthRequestContext>, root: Router<AuthRequestContext>) {
        // Always routed, so the route list is the same whatever the configuration (docs/SERVER.md).
        root.get(".well-known/apple-app-site-association") { _, _ in
            guard let association else {
                return Response(
                    status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "No app is configured (auth-server --apple-app-ids).\n")))
            }
            return try JSONResponse.make(association)
        }
        let group = goTrue.group("passkeys").add(middleware: PasskeysEnabledMiddleware(enabled: service != nil))
        group.post("authentication/options") { request, context in
            let key = context.clientRateLimitKey
            if case .limited(let seconds) = try await optionsLimiter.attempt(key) { throw AuthError.rateLimited(retryAfter: seconds) }
            return try JSONResponse.make(try await enabled().authenticationOptions())
        }
        group.post("authentication/verify") { request, context in
            let body = try await RequestDecoding.decode(PasskeyWire.VerifyRequest.self, from: request)
            let origin = SessionService.Origin(
                userAgent: request.headers[.userAgent], ip: context.clientIP, dpopJKT: try await dpop?.grantBinding(request))
            return try JSONResponse.make(try await enabled().signIn(body, origin: origin))
        }
        let bearer = group.group().add(middleware: authMiddleware)
        // GoTrue's `requireNotAnonymous` on both registration routes (docs/ACCOUNTS.md).
        bearer.post("registration/options") { _, context in
            try await enabled().sessions.requireNotAnonymous(try context.requireIdentity())
            let (service, user) = try await signedIn(context)
            return try JSONResponse.make(try await service.registrationOptions(for: user))
        }
        bearer.post("registration/verify") { request, context in
            try await enabled().sessions.requireNotAnonymous(try context.requireIdentity())
            let (service, user) = try await signedIn(context)
            let body = try await RequestDecoding.decode(PasskeyWire.VerifyRequest.self, from: request)
            return try JSONResponse.make(try await service.register(body, user: user, ip: context.clientIP))
        }
        bearer.get { _, context in
            let (service, user) = try await signedIn(context)
            return try JSONResponse.make(try await service.store.passkeys(userID: user.id).map(PasskeyWire.Passkey.init))
        }
        bearer.patch(":id") { request, context in
            let identity = try context.requireIdentity()
            // Renaming and removing are managing too: AAL2 once a factor is verified (docs/MFA.md).
            try await enabled().requireStepUpIfEnrolled(identity)
            let body = try await RequestDecoding.decode(PasskeyWire.UpdateRequest.self, from: request)
            return try JSONResponse.make(
                try await enabled().rename(
                    id: try context.parameters.require("id"), userID: identity.userID, to: body.friendlyName,
                    ip: context.clientIP))
        }
        bearer.delete(":id") { request, context in
            let identity = try context.requireIdentity()
            try await enabled().requireStepUpIfEnrolled(identity)
            try await enabled().remove(
                id: try context.parameters.require("id"), userID: identity.userID, ip: context.clientIP)
            return Response(status: .noContent)
        }
    }

    private func enabled() throws -> PasskeyService {
        guard let service else { throw AuthError.passkeyDisabled }
        return service
    }

    /// The service and the signed-in user, who may add passkeys: GoTrue asks
    /// AAL2 of an account with a verified second factor (``PasskeyService/requireStepUpIfEnrolled(_:)``).
    private func signedIn(_ context: AuthRequestContext) async throws -> (PasskeyService, UserRecord) {
        let service = try enabled()
        let identity = try context.requireIdentity()
        guard let user = try await service.store.currentUser(id: identity.userID, now: service.clock.now) else {
            throw AuthError.sessionRevoked
        }
        try await service.requireStepUpIfEnrolled(identity)
        return (service, user)
    }

}

/// Answers GoTrue's 404 `passkey_disabled` on every passkey route while passkeys are off,
/// before asking for credentials, as GoTrue does.
struct PasskeysEnabledMiddleware: RouterMiddleware {
    let enabled: Bool

    func handle(
        _ request: Request, context: AuthRequestContext, next: (Request, AuthRequestContext) async throws -> Response
    ) async throws -> Response {
        guard enabled else { throw AuthError.passkeyDisabled }
        return try await next(request, context)
    }
}
