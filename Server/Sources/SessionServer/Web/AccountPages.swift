import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// `/account`: a person's own devices, how they sign in, their password and
/// deletion (docs/SERVER.md, "The account page"; docs/ADMIN.md).
///
/// The sensitive actions (a new password, signing out every other device,
/// deleting the account) ask for proof that fits the person: the current
/// password when they have one, otherwise a code mailed for the action;
/// neither within the re-authentication window of a sign-in on this page.
struct AccountPages: Sendable {
    let web: WebPages
    let sessions: SessionService
    let codes: EmailCodeService
    let signIn: AccountSignInPages
    let origin: @Sendable (Request, AuthRequestContext) -> SessionService.Origin

    /// How long a browser stays signed in to the page.
    static let lifetime: TimeInterval = 12 * 3600
    static let title = "Your account"

    func register(on pages: RouterGroup<AuthRequestContext>) {
        let group = pages.group("account")
        group.get { request, _ in
            guard let signedIn = try await web.webSession(request, kind: .account), let userID = signedIn.userID,
                let user = try await sessions.store.user(id: userID)
            else { return signIn.signInPage() }
            return try await accountPage(user, signedIn, notice: request.uri.queryParameters.get("done").flatMap(Self.notices))
        }
        signIn.register(on: group)
        registerEmailChange(on: group)
        group.post("sessions/:id/sign-out") { request, context in
            guard let (signedIn, _) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let id = context.parameters.get("id")
            else { return WebPages.refused(title: Self.title) }
            if try await sessions.store.revokeSession(id: id, userID: userID, reason: "logout", now: sessions.clock.now) {
                try await audit(userID, target: id, scope: "device", request, context)
            }
            return WebPages.seeOther("/account?done=device")
        }
        group.post("reauthenticate") { request, context in
            guard let (signedIn, _) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let user = try await sessions.store.user(id: userID)
            else { return WebPages.refused(title: Self.title) }
            do {
                try await signIn.mailLimit(request, context)
                try await codes.sendReauthentication(to: user, ip: origin(request, context).ip, from: "account page")
            } catch let error as AuthError {
                return try await accountPage(user, signedIn, error: error.message, status: GoTrueError(error).status)
            }
            return WebPages.seeOther("/account?done=code")
        }
        group.post("sign-out-others") { request, context in
            guard let (signedIn, form) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let user = try await sessions.store.user(id: userID)
            else { return WebPages.refused(title: Self.title) }
            do {
                try await requirePresence(user, signedIn, form, request, context)
            } catch let error as AuthError {
                return try await refused(error, user, signedIn)
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
                try await requirePresence(user, signedIn, form, request, context)
                let hash = await sessions.hasher.hash(password)
                try await sessions.store.changePassword(
                    userID: userID, hash: hash, keeping: signedIn.sessionID, now: sessions.clock.now,
                    ip: origin(request, context).ip)
            } catch let error as AuthError {
                return try await refused(error, user, signedIn)
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
                try await requirePresence(user, signedIn, form, request, context)
            } catch let error as AuthError {
                return try await refused(error, user, signedIn)
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

    /// A refused sensitive action, on the page: 400, or 429 with `Retry-After`
    /// when a budget refused it (the account's password checks, issue 37, item 2).
    func refused(_ error: AuthError, _ user: UserRecord, _ signedIn: AuthStore.WebSession) async throws -> Response {
        let mapped = GoTrueError(error)
        let limited = mapped.status == .tooManyRequests
        var response = try await accountPage(user, signedIn, error: error.message, status: limited ? .tooManyRequests : .badRequest)
        if limited, let retry = mapped.headers[.retryAfter] { response.headers[.retryAfter] = retry }
        return response
    }

    /// The current password, a mailed code, or a sign-in on this page within
    /// the re-authentication window: the API's rule (``PresenceCheck``).
    func requirePresence(
        _ user: UserRecord, _ signedIn: AuthStore.WebSession, _ form: WebForm, _ request: Request, _ context: AuthRequestContext
    ) async throws {
        // The page signs in with one factor only: a person with a second factor makes these changes
        // from an app that asked for it, never with the password alone (docs/MFA.md).
        try await AssuranceGate(store: sessions.store).requireAAL2IfEnrolled(
            userID: user.id, sessionID: signedIn.sessionID, status: 403,
            "This account has a second factor: sign in on this page again and type your authenticator code, then make this change.")
        do {
            try await codes.presence.require(
                sessionID: signedIn.sessionID, user: user, currentPassword: form["current_password"].flatMap { $0.isEmpty ? nil : $0 },
                nonce: form["nonce"].map(AccountSignInPages.digits), ip: origin(request, context).ip)
        } catch let error as AuthError
            where error == .sessionRevoked || error == AuthError.reauthenticationNeeded(withinSeconds: 0)
        {
            // The API's message names fields and endpoints; the page names its own fields and button.
            throw AuthError(
                .reauthenticationNeeded,
                user.hasPassword
                    ? "Confirm it is you: type your current password into the form, then send it again."
                    : "Confirm it is you: choose \u{201C}Email me a code\u{201D}, then type the code from the email into the form.")
        } catch let error as AuthError where error == .reauthenticationNotValid {
            throw AuthError(
                .reauthenticationNotValid,
                "That code is wrong, used or expired. Choose \u{201C}Email me a code\u{201D} for a new one and type the newest.")
        }
    }

    func accountPage(
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
        let seconds = Int(sessions.configuration.reauthenticationWindow)
        let window = seconds >= 120 ? "\(seconds / 60) minutes" : "\(seconds) seconds"
        var context: [String: Any] = [
            "title": Self.title, "email": user.email ?? user.id, "devices": devices, "csrf": signedIn.csrf,
            "hasPassword": user.hasPassword, "usesCode": user.email != nil && codes.mail != nil,
            "mailsCodes": user.email != nil && codes.mail != nil && !user.hasPassword,
            "providers": user.identities.map { ["label": AccountSignInPages.label($0.provider)] },
            "window": window,
            "hasEmail": user.email != nil, "currentEmail": user.email ?? "",
            "hasPending": user.pendingEmail != nil, "pendingEmail": user.pendingEmail ?? "",
        ]
        context.merge(try await AccountFactorPages.context(sessions.store, userID: user.id)) { _, factors in factors }
        context["notice"] = notice
        context["error"] = error
        return WebPages.page("account", context, status: status)
    }

    static func notices(_ done: String) -> String? {
        switch done {
        case "device": "That device is signed out: its next refresh will be refused."
        case "others": "Every other device is signed out."
        case "password": "Your password is set. Every other device is signed out."
        case "code": "A code is on its way to your email. Type it into the form of the change you want to make."
        case "email-sent": "The codes are on their way: type them below to confirm the new address."
        case "email-one": "One address is confirmed. Type the code sent to the other address too."
        case "email": "Your email address is changed."
        default: AccountFactorPages.notice(done)
        }
    }
}
