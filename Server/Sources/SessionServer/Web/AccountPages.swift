import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// `/account`: a person's own devices, sign-out, password and deletion
/// (docs/ADMIN.md, "The console and the account page").
struct AccountPages: Sendable {
    let web: WebPages
    let sessions: SessionService
    /// The token endpoints' per-IP limit, for the sign-in form.
    let limit: @Sendable (Request, AuthRequestContext) async throws -> Void
    let origin: @Sendable (Request, AuthRequestContext) -> SessionService.Origin

    /// How long a browser stays signed in to the page.
    static let lifetime: TimeInterval = 12 * 3600
    static let title = "Your account"

    func register(on pages: RouterGroup<AuthRequestContext>) {
        let group = pages.group("account")
        group.get { request, _ in
            guard let signedIn = try await web.webSession(request, kind: .account), let userID = signedIn.userID,
                let user = try await sessions.store.user(id: userID)
            else { return WebPages.page("account-sign-in", ["title": "Sign in to your account"]) }
            return try await accountPage(user, signedIn, notice: request.uri.queryParameters.get("done").flatMap(Self.notices))
        }
        group.post("sign-in") { request, context in
            guard WebForm.isSameOrigin(request, externalURL: web.externalURL) else { return WebPages.refused(title: "Sign in to your account") }
            try await limit(request, context)
            let form = try await WebForm.read(request)
            let user: UserRecord
            do {
                user = try await sessions.verifiedUser(email: form["email"] ?? "", password: form["password"] ?? "")
            } catch let error as AuthError {
                return WebPages.page(
                    "account-sign-in", ["title": "Sign in to your account", "error": error.message], status: .badRequest)
            }
            let from = origin(request, context)
            let (session, _) = try await sessions.store.createSession(
                userID: user.id, userAgent: from.userAgent, ip: from.ip, now: sessions.clock.now,
                refreshTokenTTL: sessions.configuration.refreshTokenTTL, absoluteTTL: Self.lifetime, method: "password")
            return try await web.signIn(
                .init(kind: .account, userID: user.id, sessionID: session.id, csrf: RefreshTokenCodec.generate()),
                lifetime: Self.lifetime, then: "/account")
        }
        group.post("sessions/:id/sign-out") { request, context in
            guard let (signedIn, _) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let id = context.parameters.get("id")
            else { return WebPages.refused(title: Self.title) }
            if try await sessions.store.revokeSession(id: id, userID: userID, reason: "logout", now: sessions.clock.now) {
                try await audit(userID, target: id, scope: "device", request, context)
            }
            return WebPages.seeOther("/account?done=device")
        }
        group.post("sign-out-others") { request, context in
            guard let (signedIn, _) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID else {
                return WebPages.refused(title: Self.title)
            }
            try await sessions.store.revokeSessions(
                userID: userID, keeping: signedIn.sessionID, reason: "logout", now: sessions.clock.now)
            try await audit(userID, target: signedIn.sessionID, scope: "others", request, context)
            return WebPages.seeOther("/account?done=others")
        }
        group.post("password") { request, context in
            guard let (signedIn, form) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let user = try await sessions.store.user(id: userID)
            else { return WebPages.refused(title: Self.title) }
            do {
                let password = form["password"] ?? ""
                try sessions.validate(password: password)
                try await requirePresence(user, signedIn, currentPassword: form["current_password"])
                let hash = await sessions.hasher.hash(password)
                try await sessions.store.changePassword(
                    userID: userID, hash: hash, keeping: signedIn.sessionID, now: sessions.clock.now,
                    ip: origin(request, context).ip)
            } catch let error as AuthError {
                return try await accountPage(user, signedIn, error: error.message, status: .badRequest)
            }
            return WebPages.seeOther("/account?done=password")
        }
        group.post("delete") { request, context in
            guard let (signedIn, form) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let user = try await sessions.store.user(id: userID)
            else { return WebPages.refused(title: Self.title) }
            do {
                guard form["confirm"] == "yes" else {
                    throw AuthError.invalidRequest(field: "confirm", "Tick the box to confirm that the account should be deleted.")
                }
                try await requirePresence(user, signedIn, currentPassword: form["current_password"])
            } catch let error as AuthError {
                return try await accountPage(user, signedIn, error: error.message, status: .badRequest)
            }
            try await sessions.store.deleteUser(
                id: userID,
                audit: AuditActor(
                    actor: userID, ip: origin(request, context).ip, details: ["from": "account page"], now: sessions.clock.now))
            var response = WebPages.page(
                "message", ["title": "Account deleted", "body": "Your account and every session of it are gone."])
            response.headers[.setCookie] = web.cookie.clear()
            return response
        }
        group.post("sign-out") { request, context in
            guard let (signedIn, _) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let sessionID = signedIn.sessionID
            else { return WebPages.refused(title: Self.title) }
            _ = try await sessions.store.revokeSession(id: sessionID, userID: userID, reason: "logout", now: sessions.clock.now)
            try await audit(userID, target: sessionID, scope: "local", request, context)
            return try await web.signOut(request, then: "/account")
        }
    }

    /// A sign-out from the page, in the audit log as the API's are.
    private func audit(
        _ userID: String, target: String?, scope: String, _ request: Request, _ context: AuthRequestContext
    ) async throws {
        try await sessions.store.audit(
            actor: userID, action: "logout", target: target, ip: origin(request, context).ip,
            details: ["scope": .string(scope), "from": "account page"], now: sessions.clock.now)
    }

    /// The current password, or a sign-in on this page within the re-authentication window.
    private func requirePresence(_ user: UserRecord, _ signedIn: AuthStore.WebSession, currentPassword: String?) async throws {
        let typed = currentPassword.flatMap { $0.isEmpty ? nil : $0 }
        if let typed {
            guard user.hasPassword, typed.utf8.count <= 72, await sessions.hasher.verify(typed, hash: user.passwordHash) else {
                throw AuthError.currentPasswordMismatch
            }
            return
        }
        guard let sessionID = signedIn.sessionID, let session = try await sessions.store.session(id: sessionID),
            sessions.clock.now.timeIntervalSince(session.createdAt) <= sessions.configuration.reauthenticationWindow
        else { throw AuthError.reauthenticationNeeded(withinSeconds: Int(sessions.configuration.reauthenticationWindow)) }
    }

    private func accountPage(
        _ user: UserRecord, _ signedIn: AuthStore.WebSession, notice: String? = nil, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let devices = try await sessions.store.activeSessions(userID: user.id, now: sessions.clock.now).map { session in
            [
                "id": session.id, "device": WebPages.device(session.userAgent), "ip": session.ip ?? "—",
                "createdAt": WebPages.date(session.createdAt), "lastUsed": WebPages.date(session.refreshedAt ?? session.createdAt),
                "current": session.id == signedIn.sessionID,
            ] as [String: Any]
        }
        var context: [String: Any] = [
            "title": Self.title, "email": user.email ?? user.id, "devices": devices, "csrf": signedIn.csrf,
        ]
        context["notice"] = notice
        context["error"] = error
        return WebPages.page("account", context, status: status)
    }

    static func notices(_ done: String) -> String? {
        switch done {
        case "device": "That device is signed out: its next refresh will be refused."
        case "others": "Every other device is signed out."
        case "password": "Your password is changed. Every other device is signed out."
        default: nil
        }
    }
}
