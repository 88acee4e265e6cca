import Foundation
import Hummingbird
import SessionCore

/// `/admin/audit` and `/admin/keys`: the log, and the signing keys with
/// rotate and retire (docs/DESIGN.md, "Signing keys").
struct AdminConsoleKeyPages: Sendable {
    let console: AdminConsolePages

    func register(on group: RouterGroup<AuthRequestContext>) {
        let web = console.web
        let admin = console.admin
        group.get("audit") { request, _ in
            guard try await web.webSession(request, kind: .admin) != nil else { return WebPages.seeOther("/admin") }
            let (entries, _) = try await admin.store.auditLog(page: 1, perPage: 200)
            return WebPages.page(
                "admin-audit",
                [
                    "title": "Audit log", "nav": AdminConsolePages.nav,
                    "entries": entries.map { entry in
                        [
                            "createdAt": WebPages.date(entry.createdAt), "actor": entry.actor, "action": entry.action,
                            "target": entry.target ?? "", "ip": entry.ip ?? "",
                        ]
                    },
                ])
        }
        group.get("keys") { request, _ in
            guard let signedIn = try await web.webSession(request, kind: .admin) else { return WebPages.seeOther("/admin") }
            let now = console.clock.now
            let keys = try await admin.store.signingKeyList()
            return WebPages.page(
                "admin-keys",
                [
                    "title": "Signing keys", "nav": AdminConsolePages.nav, "csrf": signedIn.csrf,
                    "keys": keys.map { key in
                        [
                            "kid": key.kid, "generation": key.generation, "state": key.state.rawValue,
                            "age": "\(Int(now.timeIntervalSince(key.createdAt) / 86_400)) days",
                            "canRetire": key.state == .verifying,
                        ] as [String: Any]
                    },
                ])
        }
        group.post("keys/rotate") { request, context in
            guard let (signedIn, _) = try await web.postedForm(request, kind: .admin) else {
                return WebPages.refused(title: "Admin console")
            }
            _ = try await console.keyRing.rotate(
                actor: signedIn.key?.actor ?? ServiceRoleClaims.role, ip: console.ip(request, context))
            return WebPages.seeOther("/admin/keys")
        }
        group.post("keys/:kid/retire") { request, context in
            guard let (signedIn, _) = try await web.postedForm(request, kind: .admin), let kid = context.parameters.get("kid")
            else {
                return WebPages.refused(title: "Admin console")
            }
            do {
                _ = try await console.keyRing.retire(
                    kid: kid, actor: signedIn.key?.actor ?? ServiceRoleClaims.role, ip: console.ip(request, context))
            } catch let error as KeyManagementError {
                return WebPages.page(
                    "message", ["title": "Not retired", "nav": AdminConsolePages.nav, "error": error.description],
                    status: .badRequest)
            }
            return WebPages.seeOther("/admin/keys")
        }
    }
}
