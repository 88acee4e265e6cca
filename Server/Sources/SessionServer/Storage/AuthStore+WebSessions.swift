import Foundation
import SQLKit

/// Browsers signed in to `/account` (a person, bound to one of their
/// sessions) or `/admin` (an operator). The cookie is a random token; only
/// its SHA-256 is stored (docs/ADMIN.md, "The console and the account page").
extension AuthStore {
    /// A signed-in browser.
    struct WebSession: Sendable, Hashable {
        enum Kind: String, Sendable {
            case account, admin
            /// A person with a second factor between the first-factor sign-in and its code (docs/MFA.md).
            case accountFactorStep = "account_factor_step"
        }
        var kind: Kind
        /// The person, for `account`.
        var userID: String?
        /// Their session (a device in the list), for `account`.
        var sessionID: String?
        /// The token every form of this browser carries.
        var csrf: String
        /// The service-role key an `admin` browser signed in with.
        var key: ConsoleKey? = nil
    }

    /// Who a console is (issue 29, item 8): the service-role key it signed in
    /// with, by name and id, never the key itself. Its signing key and expiry
    /// end the console when they end the key.
    struct ConsoleKey: Sendable, Hashable {
        /// `kid` of the signing key that signed the service-role key.
        var signingKeyID: String
        var expiresAt: Date
        var name: String
        var id: String

        /// The audit log's `actor` for what this console does.
        var actor: String { "console:\(name) (\(id))" }
    }

    func createWebSession(tokenHash: String, _ web: WebSession, now: Date, lifetime: TimeInterval) async throws {
        try await driver.transaction { db in
            try await db.raw(
                """
                INSERT INTO web_sessions (token_hash, kind, user_id, session_id, csrf, created_at, expires_at,
                key_kid, key_expires_at, key_name, key_id)
                VALUES (\(bind: tokenHash), \(bind: web.kind.rawValue), \(bind: web.userID), \(bind: web.sessionID),
                \(bind: web.csrf), \(bind: now.stored), \(bind: now.addingTimeInterval(lifetime).stored),
                \(bind: web.key?.signingKeyID), \(bind: web.key?.expiresAt.stored), \(bind: web.key?.name), \(bind: web.key?.id))
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
            var web = WebSession(
                kind: kind, userID: try row.optionalString("user_id"), sessionID: try row.optionalString("session_id"),
                csrf: try row.string("csrf"))
            if kind == .admin {
                // A console lives no longer than its key (issue 29, item 8): the key expired, or
                // its signing key was retired (on any replica), ends it. A console signed in
                // before keys were recorded has none and ends too.
                guard let signingKeyID = try row.optionalString("key_kid"), let expiresAt = try row.optionalDate("key_expires_at"),
                    expiresAt > now,
                    let signingKey = try await db.raw("SELECT retired_at FROM signing_keys WHERE kid = \(bind: signingKeyID)")
                        .first(),
                    try signingKey.optionalDate("retired_at") == nil
                else { return nil }
                web.key = ConsoleKey(
                    signingKeyID: signingKeyID, expiresAt: expiresAt, name: try row.optionalString("key_name") ?? "unnamed",
                    id: try row.optionalString("key_id") ?? "unknown")
            }
            if kind == .account || kind == .accountFactorStep {
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

    /// Deletes page and console sessions past their expiry (the pruning
    /// service's pass); returns how many.
    static func pruneWebSessions(before now: Date, on db: any SQLDatabase) async throws -> Int {
        let expired = try await db.raw("SELECT token_hash FROM web_sessions WHERE expires_at <= \(bind: now.stored)").all()
        try await db.raw("DELETE FROM web_sessions WHERE expires_at <= \(bind: now.stored)").run()
        return expired.count
    }

    func deleteWebSession(tokenHash: String) async throws {
        try await driver.transaction { db in
            try await db.raw("DELETE FROM web_sessions WHERE token_hash = \(bind: tokenHash)").run()
        }
    }
}
