import Foundation
import SQLKit
import SessionCore

/// What the admin API reads and writes (docs/ADMIN.md).
extension AuthStore {
    /// A page of users, oldest first, and how many there are.
    ///
    /// - Parameter matching: only emails containing this text (case-insensitive).
    public func users(page: Int, perPage: Int, matching: String? = nil) async throws -> (users: [UserRecord], total: Int) {
        // LIKE's own wildcards in the text are matched literally.
        let pattern = matching.map {
            "%" + $0.lowercased().replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
        } ?? "%"
        return try await driver.transaction { db in
            let filter: SQLQueryString = "WHERE COALESCE(email, '') LIKE \(bind: pattern) ESCAPE '\\'"
            let total = try await db.raw("SELECT COUNT(*) AS n FROM users \(filter)").first()?.decode(column: "n", as: Int.self) ?? 0
            var users = try await db.raw(
                """
                SELECT * FROM users \(filter) ORDER BY created_at, id
                LIMIT \(bind: perPage) OFFSET \(bind: (page - 1) * perPage)
                """
            ).all().map(Self.user(from:))
            for index in users.indices {
                users[index].identities = try await Self.fetchIdentities(userID: users[index].id, on: db)
            }
            return (users, total)
        }
    }

    /// What an admin changes on a user; `nil` leaves a field as it is.
    struct AdminUserChange: Sendable {
        var email: String?
        var passwordHash: String?
        /// `true` confirms the email now, `false` un-confirms it.
        var emailConfirmed: Bool?
        /// Merged into the user's metadata (a `null` value removes a key).
        var userMetadata: [String: JSONValue]?
        var appMetadata: [String: JSONValue]?
        /// `.some(nil)` lifts a ban.
        var bannedUntil: Date??
    }

    /// Applies `change` to the user `id` in one transaction, with its audit entry.
    ///
    /// A new password signs every session out. A ban does not: it refuses the
    /// next refresh with `user_banned`, so the app can say why, and a lifted
    /// ban lets the sessions go on.
    ///
    /// - Throws: ``AuthError/notFound``, ``AuthError/userAlreadyExists`` (the email is taken).
    func applyAdminChange(
        _ change: AdminUserChange, to id: String, audit: (actor: String, ip: String?), now: Date
    ) async throws -> UserRecord {
        let flavor = driver.flavor
        let user: UserRecord = try await revokingSessions(changingUsers: true) { db in
            guard
                var user = try await db.raw("SELECT * FROM users WHERE id = \(bind: id)\(unsafeRaw: flavor.forUpdate)")
                    .first().map(Self.user(from:))
            else { throw AuthError.notFound }
            if let email = change.email, email != user.email {
                guard try await db.raw("SELECT id FROM users WHERE email = \(bind: email)").first() == nil else {
                    throw AuthError.userAlreadyExists
                }
                user.email = email
            }
            if let hash = change.passwordHash { user.passwordHash = hash }
            if let confirmed = change.emailConfirmed { user.emailConfirmedAt = confirmed ? (user.emailConfirmedAt ?? now) : nil }
            for (key, value) in change.userMetadata ?? [:] {
                if value == .null { user.userMetadata.removeValue(forKey: key) } else { user.userMetadata[key] = value }
            }
            for (key, value) in change.appMetadata ?? [:] {
                if value == .null { user.appMetadata.removeValue(forKey: key) } else { user.appMetadata[key] = value }
            }
            if let banned = change.bannedUntil { user.bannedUntil = banned }
            user.updatedAt = now
            try await db.raw(
                """
                UPDATE users SET email = \(bind: user.email), password_hash = \(bind: user.passwordHash),
                email_confirmed_at = \(bind: user.emailConfirmedAt?.stored), user_metadata = \(bind: try Self.encodeMetadata(user.userMetadata)),
                app_metadata = \(bind: try Self.encodeMetadata(user.appMetadata)), banned_until = \(bind: user.bannedUntil?.stored),
                updated_at = \(bind: now.stored) WHERE id = \(bind: id)
                """
            ).run()
            if change.passwordHash != nil {
                try await db.raw(
                    """
                    UPDATE sessions SET revoked_at = \(bind: now.stored), revoked_reason = 'admin'
                    WHERE user_id = \(bind: id) AND revoked_at IS NULL
                    """
                ).run()
            }
            var details: [String: JSONValue] = [:]
            if change.email != nil { details["email"] = true }
            if change.passwordHash != nil { details["password"] = true }
            if let banned = change.bannedUntil { details["banned_until"] = banned.map { .string(WireCoding.formatDate($0)) } ?? .null }
            if change.userMetadata != nil || change.appMetadata != nil { details["metadata"] = true }
            try await Self.insertAudit(
                actor: audit.actor,
                action: user.isBanned(at: now) ? "user_banned" : (change.bannedUntil == .some(nil) ? "user_unbanned" : "user_updated"),
                target: id,
                ip: audit.ip, details: details, now: now, on: db)
            user.identities = try await Self.fetchIdentities(userID: id, on: db)
            return user
        }
        return user
    }
}
