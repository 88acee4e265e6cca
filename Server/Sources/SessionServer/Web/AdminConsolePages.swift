import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// `/admin`: the operator's console over the admin API's actions: users and
/// their devices, bans, sign-out everywhere, deletion, the audit log and
/// the signing keys (docs/ADMIN.md, "The console and the account page").
struct AdminConsolePages: Sendable {
    let web: WebPages
    let admin: AdminService
    let keyRing: KeyRing
    let verifier: AccessTokenVerifier
    let limit: @Sendable (Request, AuthRequestContext) async throws -> Void
    let ip: @Sendable (Request, AuthRequestContext) -> String?

    /// An operator's browser stays signed in for an hour.
    static let lifetime: TimeInterval = 3600
    /// The console's navigation, as the templates read it.
    static var nav: [String: Any] {
        [
            "links": [
                ["href": "/admin", "label": "Users"], ["href": "/admin/audit", "label": "Audit log"],
                ["href": "/admin/keys", "label": "Signing keys"],
            ]
        ]
    }

    var clock: any SessionClock { admin.clock }

    func register(on pages: RouterGroup<AuthRequestContext>) {
        let group = pages.group("admin")
        group.get { request, _ in
            guard let signedIn = try await web.webSession(request, kind: .admin) else {
                return WebPages.page("admin-sign-in", ["title": "Admin console: sign in"])
            }
            let query = request.uri.queryParameters.get("q").map { String($0.prefix(100)) }
            let (users, total) = try await admin.store.users(page: 1, perPage: 200, matching: query)
            return WebPages.page(
                "admin-users",
                [
                    "title": "Users", "nav": Self.nav, "query": query ?? "", "total": total, "csrf": signedIn.csrf,
                    "users": users.map { user in
                        [
                            "id": user.id, "email": user.email ?? "(no email) \(user.id)", "createdAt": WebPages.date(user.createdAt),
                            "lastSignIn": WebPages.date(user.lastSignInAt), "state": Self.state(user, now: clock.now),
                        ]
                    },
                ])
        }
        group.post("sign-in") { request, context in
            guard WebForm.isSameOrigin(request, externalURL: web.externalURL) else { return WebPages.refused(title: "Admin console: sign in") }
            try await limit(request, context)
            let key = (try await WebForm.read(request))["key"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let consoleKey: AuthStore.ConsoleKey
            do {
                let verified = try await verifier.verify(key, now: clock.now)
                guard verified.claims.role == ServiceRoleClaims.role, verified.sessionID == nil, let kid = verified.keyID,
                    let expiresAt = verified.claims.exp
                else { throw AuthError.notAdmin }
                let identity = ServiceRoleIdentity(token: key, verified: verified)
                consoleKey = .init(signingKeyID: kid, expiresAt: expiresAt, name: identity.name, id: identity.id)
            } catch is AuthError {
                return WebPages.page(
                    "admin-sign-in", ["title": "Admin console: sign in", "error": "That is not a valid service-role key."],
                    status: .badRequest)
            }
            try await admin.store.audit(actor: consoleKey.actor, action: "console_sign_in", ip: ip(request, context), now: clock.now)
            return try await web.signIn(
                .init(kind: .admin, userID: nil, sessionID: nil, csrf: RefreshTokenCodec.generate(), key: consoleKey),
                lifetime: Self.lifetime, then: "/admin")
        }
        group.post("sign-out") { request, context in
            guard let (signedIn, _) = try await web.postedForm(request, kind: .admin) else { return WebPages.refused(title: "Admin console") }
            try await admin.store.audit(
                actor: signedIn.key?.actor ?? ServiceRoleClaims.role, action: "console_sign_out", ip: ip(request, context),
                now: clock.now)
            return try await web.signOut(request, then: "/admin")
        }
        group.get("users/:id") { request, context in
            guard let signedIn = try await web.webSession(request, kind: .admin) else { return WebPages.seeOther("/admin") }
            guard let id = context.parameters.get("id"), let user = try await admin.store.user(id: id) else {
                return WebPages.page("message", ["title": "No such user", "nav": Self.nav], status: .notFound)
            }
            let sessions = try await admin.store.activeSessions(userID: id, now: clock.now)
            return WebPages.page(
                "admin-user",
                [
                    "title": user.email ?? user.id, "nav": Self.nav, "id": user.id, "email": user.email ?? "(none)",
                    "createdAt": WebPages.date(user.createdAt), "state": Self.state(user, now: clock.now), "csrf": signedIn.csrf,
                    "sessions": sessions.map { session in
                        [
                            "device": WebPages.device(session.userAgent), "ip": session.ip ?? "—",
                            "createdAt": WebPages.date(session.createdAt),
                            "lastUsed": WebPages.date(session.refreshedAt ?? session.createdAt), "state": "active",
                        ]
                    },
                ])
        }
        userAction(group, "ban") { admin, id, form, ip in
            _ = try await admin.updateUser(id: id, Self.attributes(banDuration: form["duration"] ?? "24h"), ip: ip)
            return "/admin/users/\(id)"
        }
        userAction(group, "unban") { admin, id, _, ip in
            _ = try await admin.updateUser(id: id, Self.attributes(banDuration: "none"), ip: ip)
            return "/admin/users/\(id)"
        }
        userAction(group, "sign-out") { admin, id, _, ip in
            try await admin.signOutEverywhere(id: id, ip: ip)
            return "/admin/users/\(id)"
        }
        userAction(group, "delete") { admin, id, form, ip in
            guard form["confirm"] == "yes" else {
                throw AuthError.invalidRequest(field: "confirm", "Tick the box to confirm the deletion.")
            }
            try await admin.deleteUser(id: id, ip: ip)
            return "/admin"
        }
        AdminConsoleKeyPages(console: self).register(on: group)
    }

    /// A post about one user: checked, done (audited as the console's key,
    /// from the browser's address), then back to a page.
    private func userAction(
        _ group: RouterGroup<AuthRequestContext>, _ name: String,
        _ body: @escaping @Sendable (AdminService, String, WebForm, String?) async throws -> String
    ) {
        group.post("users/:id/\(name)") { request, context in
            guard let (signedIn, form) = try await web.postedForm(request, kind: .admin), let id = context.parameters.get("id")
            else {
                return WebPages.refused(title: "Admin console")
            }
            do {
                return WebPages.seeOther(try await body(admin.acting(as: signedIn.key), id, form, ip(request, context)))
            } catch let error as AuthError {
                return WebPages.page(
                    "message", ["title": "Not done", "nav": Self.nav, "error": error.message], status: .badRequest)
            }
        }
    }

    static func attributes(banDuration: String) -> AdminUserAttributes {
        var attributes = AdminUserAttributes()
        attributes.banDuration = banDuration
        return attributes
    }

    static func state(_ user: UserRecord, now: Date) -> String {
        user.isBanned(at: now) ? "banned until \(WebPages.date(user.bannedUntil))" : "active"
    }
}
