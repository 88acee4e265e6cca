import Foundation
import SQLKit

/// Browsers signed in to `/account` (a person, bound to one of their
/// sessions) or `/admin` (an operator). The cookie is a random token; only
/// its SHA-256 is stored (docs/ADMIN.md, "The console and the account page").
extension AuthStore {
    /// A signed-in browser.
    struct WebSession: Sendable, Hashable {
        enum Kind: String, Sendable { case account, admin }
        var kind: Kind
        /// The person, for `account`.
        var userID: String?
        /// Their session (a device in the list), for `account`.
        var sessionID: String?
        /// The token every form of this browser carries.
        var csrf: String
    }

    func createWebSession(tokenHash: String, _ web: WebSession, now: Date, lifetime: TimeInterval) async throws {
        try await driver.transaction { db in
            try await db.raw(
                """
                INSERT INTO web_sessions (token_hash, kind, user_id, session_id, csrf, created_at, expires_at)
                VALUES (\(bind: tokenHash), \(bind: web.kind.rawValue), \(bind: web.userID), \(bind: web.sessionID),
                \(bind: web.csrf), \(bind: now.stored), \(bind: now.addingTimeInterval(lifetime).stored))
                """
            ).run()
        }
    }

    /// The browser of `tokenHash` while it and (for `account`) its session are
    /// live and its person exists and is not banned.
    func webSession(tokenHash: String, now: Date) async throws -> WebSession? {
        try await driver.transaction { db in
            guard
                let row = try await db.raw(
                    "SELECT * FROM web_sessions WHERE token_hash = \(bind: tokenHash) AND expires_at > \(bind: now.stored)"
                ).first(),
                let kind = WebSession.Kind(rawValue: try row.string("kind"))
            else { return nil }
            let web = WebSession(
                kind: kind, userID: try row.optionalString("user_id"), sessionID: try row.optionalString("session_id"),
                csrf: try row.string("csrf"))
            if kind == .account {
                // Signing the device out anywhere (another device, an operator) signs this browser out too.
                guard let sessionID = web.sessionID,
                    let session = try await db.raw("SELECT * FROM sessions WHERE id = \(bind: sessionID)").first()
                        .map(Self.session(from:)),
                    !session.isRevoked, session.notAfter > now
                else { return nil }
                // A ban ends the page as it ends refresh (issue 29, item 7): a banned
                // person's open page could otherwise change the password for hours.
                guard
                    let user = try await db.raw("SELECT * FROM users WHERE id = \(bind: session.userID)").first()
                        .map(Self.user(from:)),
                    !user.isBanned(at: now)
                else { return nil }
            }
            return web
        }
    }

    func deleteWebSession(tokenHash: String) async throws {
        try await driver.transaction { db in
            try await db.raw("DELETE FROM web_sessions WHERE token_hash = \(bind: tokenHash)").run()
        }
    }
}
