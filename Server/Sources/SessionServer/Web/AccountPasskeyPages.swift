import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SessionCore

/// Passkeys on `/account` (docs/PASSKEYS.md, "The account page"): the served
/// script and the JSON calls it makes with the page's browser session.
///
/// The page holds no access token: its `sk_account` cookie stands for one
/// (HttpOnly, SameSite=Strict). Every call is JSON, comes from the page's
/// origin and carries the page's CSRF token in `X-CSRF-Token`: a form on
/// another site can send none of the three.
struct AccountPasskeyPages: Sendable {
    let web: WebPages
    /// `nil` while passkeys are off: every call answers 404 `passkey_disabled`, and the script shows nothing.
    let service: PasskeyService?
    let presence: PresenceCheck
    /// The pages' per-IP limit, spent by each sign-in.
    let limit: @Sendable (Request, AuthRequestContext) async throws -> Void
    let origin: @Sendable (Request, AuthRequestContext) -> SessionService.Origin

    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    func register(on pages: RouterGroup<AuthRequestContext>) {
        let group = pages.group("account")
        group.get("passkeys.js") { _, _ in AccountPasskeyScript.response() }
        let calls = group.group("passkeys").add(middleware: JSONErrors())
        calls.get("enabled") { _, _ in try JSONResponse.make(["enabled": service != nil]) }
        calls.post("sign-in") { request, context in
            guard Self.isPagesCall(request, externalURL: web.externalURL) else { throw Self.refused }
            try await limit(request, context)
            let service = try enabled()
            let body = try await RequestDecoding.decode(PasskeyWire.VerifyRequest.self, from: request)
            let from = origin(request, context)
            let (_, user) = try await service.verifyAssertion(body, ip: from.ip)
            let (session, _) = try await service.store.createSession(
                userID: user.id, userAgent: from.userAgent, ip: from.ip, now: service.clock.now,
                refreshTokenTTL: service.sessions.configuration.refreshTokenTTL, absoluteTTL: AccountPages.lifetime,
                method: "passkey")
            return try await open(userID: user.id, sessionID: session.id)
        }
        calls.get { request, _ in
            let (service, _, user) = try await signedIn(request)
            return try JSONResponse.make(try await service.store.passkeys(userID: user.id).map(PasskeyWire.Passkey.init))
        }
        calls.post("registration/options") { request, _ in
            let (service, signedIn, user) = try await signedIn(request)
            try await requireStepUpIfEnrolled(user, signedIn)
            return try JSONResponse.make(try await service.registrationOptions(for: user))
        }
        calls.post("registration/verify") { request, context in
            let (service, signedIn, user) = try await signedIn(request)
            try await requireStepUpIfEnrolled(user, signedIn)
            let body = try await RequestDecoding.decode(PasskeyWire.VerifyRequest.self, from: request)
            return try JSONResponse.make(try await service.register(body, user: user, ip: origin(request, context).ip))
        }
        calls.post(":id/rename") { request, context in
            let (service, signedIn, user) = try await signedIn(request)
            let body = try await RequestDecoding.decode(ManageRequest.self, from: request)
            let ip = origin(request, context).ip
            try await requireProof(body, service, signedIn, user, ip: ip)
            return try JSONResponse.make(
                try await service.rename(
                    id: try context.parameters.require("id"), userID: user.id, to: body.friendlyName ?? "", ip: ip))
        }
        calls.post(":id/remove") { request, context in
            let (service, signedIn, user) = try await signedIn(request)
            let body = try await RequestDecoding.decode(ManageRequest.self, from: request)
            let ip = origin(request, context).ip
            try await requireProof(body, service, signedIn, user, ip: ip)
            try await service.remove(id: try context.parameters.require("id"), userID: user.id, ip: ip)
            return Response(status: .noContent)
        }
    }

    /// Rename and remove: the proof (`challenge_id` and `credential`, a fresh
    /// assertion), and the new name.
    struct ManageRequest: Decodable, Sendable {
        var challengeID: String?
        var credential: PasskeyWire.CredentialJSON?
        var friendlyName: String?

        enum CodingKeys: String, CodingKey {
            case credential
            case challengeID = "challenge_id"
            case friendlyName = "friendly_name"
        }
    }

    /// Proof that the owner is at the keyboard before a passkey is renamed or
    /// removed: a fresh assertion by one of the account's own passkeys, or,
    /// without one (a lost passkey), the page's usual rule, a sign-in on this
    /// page within the re-authentication window (``PresenceCheck``).
    private func requireProof(
        _ body: ManageRequest, _ service: PasskeyService, _ signedIn: AuthStore.WebSession, _ user: UserRecord, ip: String?
    ) async throws {
        try await requireStepUpIfEnrolled(user, signedIn)
        if let challengeID = body.challengeID, let credential = body.credential {
            let (passkey, _) = try await service.verifyAssertion(.init(challengeID: challengeID, credential: credential), ip: ip)
            guard passkey.userID == user.id else {
                throw AuthError.webauthnVerificationFailed("that passkey belongs to another account: use one of yours.")
            }
            return
        }
        do {
            try await presence.require(sessionID: signedIn.sessionID, user: user, currentPassword: nil, ip: ip)
        } catch let error as AuthError where error == AuthError.reauthenticationNeeded(withinSeconds: 0) {
            throw AuthError(
                .reauthenticationNeeded, "Confirm it is you with one of your passkeys, or sign in again on this page, then retry.")
        }
    }

    /// The page signs in with one factor: an account with a second factor adds
    /// and manages passkeys at AAL2, as the API asks (docs/MFA.md).
    private func requireStepUpIfEnrolled(_ user: UserRecord, _ signedIn: AuthStore.WebSession) async throws {
        try await AssuranceGate(store: web.store).requireAAL2IfEnrolled(
            userID: user.id, sessionID: signedIn.sessionID, status: 403,
            "This account has a second factor: manage passkeys from an app signed in with your authenticator code.")
    }

    /// The passkey service, the page's browser session and its person, for a call from the signed-in page.
    private func signedIn(_ request: Request) async throws -> (PasskeyService, AuthStore.WebSession, UserRecord) {
        let service = try enabled()
        guard Self.isPagesCall(request, externalURL: web.externalURL),
            let signedIn = try await web.webSession(request, kind: .account), let userID = signedIn.userID,
            let csrf = request.headers[Self.csrfHeader], SHA256Hex.constantTimeEquals(csrf, signedIn.csrf),
            let user = try await service.store.currentUser(id: userID, now: service.clock.now)
        else { throw Self.refused }
        return (service, signedIn, user)
    }

    /// Signs the browser in to the page, answering JSON (the script navigates).
    /// A passkey is one factor: a person with a verified second factor types its
    /// code first, as after a password (docs/MFA.md, "The account page").
    private func open(userID: String, sessionID: String) async throws -> Response {
        if try await AssuranceGate(store: web.store).hasVerifiedFactor(userID: userID) {
            let step = try await AccountFactorPages.openStep(web, userID: userID, sessionID: sessionID)
            var response = try JSONResponse.make(["redirect": step.headers[.location] ?? "/account/factor-step"])
            response.headers[.setCookie] = step.headers[.setCookie]
            response.headers[.cacheControl] = "no-store"
            return response
        }
        let token = RefreshTokenCodec.generate()
        try await web.store.createWebSession(
            tokenHash: SHA256Hex.of(token),
            .init(kind: .account, userID: userID, sessionID: sessionID, csrf: RefreshTokenCodec.generate()),
            now: web.clock.now, lifetime: AccountPages.lifetime)
        var response = try JSONResponse.make(["redirect": "/account"])
        response.headers[.setCookie] = web.cookie.set(token, maxAge: Int(AccountPages.lifetime))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    private func enabled() throws -> PasskeyService {
        guard let service else { throw AuthError.passkeyDisabled }
        return service
    }

    /// JSON from this server's own page: a cross-site form can send neither
    /// the content type nor, with it, skip the CORS preflight.
    static func isPagesCall(_ request: Request, externalURL: URL?) -> Bool {
        guard WebForm.isSameOrigin(request, externalURL: externalURL) else { return false }
        guard request.method == .get else {
            return request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true
        }
        return true
    }

    /// A call that is not the signed-in page's own: GoTrue's JSON error, which the script shows.
    static let refused = GoTrueError(
        status: .forbidden, errorCode: GoTrueErrorCode("session_not_found"),
        message: "This page's session is gone or the call did not come from it: sign in again on this page, then retry.")
}

/// The calls' failures as GoTrue's JSON errors (not the pages' HTML), which the script reads.
private struct JSONErrors: RouterMiddleware {
    typealias Context = AuthRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as AuthError {
            throw GoTrueError(error)
        }
    }
}

extension PasskeyWire.VerifyRequest {
    init(challengeID: String, credential: PasskeyWire.CredentialJSON) {
        self.challengeID = challengeID
        self.credential = credential
        self.friendlyName = nil
    }
}
