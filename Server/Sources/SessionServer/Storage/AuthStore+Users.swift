import Foundation
import SQLKit
import SessionCore

extension AuthStore {
    static func user(from row: any SQLRow) throws -> UserRecord {
        var user = UserRecord(
            id: try row.string("id"), email: try row.optionalString("email"), passwordHash: try row.string("password_hash"),
            userMetadata: try decodeMetadata(row.string("user_metadata")), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"), lastSignInAt: try row.optionalDate("last_sign_in_at"),
            emailConfirmedAt: try row.optionalDate("email_confirmed_at"))
        user.bannedUntil = try row.optionalDate("banned_until")
        user.appMetadata = try row.optionalString("app_metadata").map(decodeMetadata) ?? [:]
        user.isAnonymous = try row.int("is_anonymous") != 0
        user.pendingEmail = try row.optionalString("email_change")
        user.emailChangeSentAt = try row.optionalDate("email_change_sent_at")
        return user
    }

    static func fetchUser(id: String, on db: any SQLDatabase) async throws -> UserRecord? {
        guard var user = try await db.raw("SELECT * FROM users WHERE id = \(bind: id)").first().map(user(from:)) else {
            return nil
        }
        user.identities = try await fetchIdentities(userID: id, on: db)
        user.factors = try await fetchFactors(userID: id, on: db).map(\.userFactor)
        return user
    }

    /// Creates a user, confirmed (autoconfirm, as a GoTrue with mailer
    /// autoconfirm does) or waiting for its address to be confirmed.
    ///
    /// - Parameter confirmed: `false` leaves `email_confirmed_at` empty until a mailed code or link is redeemed.
    /// - Parameter audit: who created it, written in the same transaction.
    /// - Throws: ``AuthError/userAlreadyExists`` when the email is taken.
    public func createUser(
        email: String, passwordHash: String, metadata: [String: JSONValue], now: Date, confirmed: Bool = true,
        audit: AuditActor? = nil
    ) async throws -> UserRecord {
        let record = UserRecord(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: passwordHash, userMetadata: metadata,
            createdAt: now, updatedAt: now, lastSignInAt: nil, emailConfirmedAt: confirmed ? now : nil)
        let metadataText = try Self.encodeMetadata(metadata)
        return try await driver.transaction { db in
            // ON CONFLICT makes two concurrent sign-ups with one email a clean
            // "already exists" on both databases, never a constraint error.
            let inserted = try await db.raw(
                """
                INSERT INTO users (id, email, password_hash, user_metadata, created_at, updated_at, email_confirmed_at)
                VALUES (\(bind: record.id), \(bind: email), \(bind: passwordHash), \(bind: metadataText),
                \(bind: now.stored), \(bind: now.stored), \(bind: record.emailConfirmedAt?.stored))
                ON CONFLICT (email) DO NOTHING RETURNING id
                """
            ).first()
            guard inserted != nil else { throw AuthError.userAlreadyExists }
            if let audit {
                try await Self.insertAudit(
                    actor: audit.actor, action: "user_created", target: record.id, ip: audit.ip, details: audit.details,
                    now: now, on: db)
            }
            return record
        }
    }

    /// The user with `email` (already normalized), if any.
    public func user(email: String) async throws -> UserRecord? {
        try await driver.transaction { db in
            guard var user = try await db.raw("SELECT * FROM users WHERE email = \(bind: email)").first().map(Self.user(from:))
            else { return nil }
            user.identities = try await Self.fetchIdentities(userID: user.id, on: db)
            user.factors = try await Self.fetchFactors(userID: user.id, on: db).map(\.userFactor)
            return user
        }
    }

    /// The user with `id`, if any.
    public func user(id: String) async throws -> UserRecord? {
        try await driver.read { db in try await Self.fetchUser(id: id, on: db) }
    }

    /// The user with `id` for showing, from ``userCache`` when it was read
    /// within its bound (docs/BENCHMARKS.md, "The user cache"). Whatever
    /// reads a user in order to change it calls ``user(id:)``.
    public func currentUser(id: String, now: Date) async throws -> UserRecord? {
        guard userCache.ttl > 0 else { return try await user(id: id) }
        // The epoch is taken before the read: a write committing meanwhile voids this row.
        let epoch: UInt64
        switch userCache.lookup(id: id, now: now) {
        case .hit(let user): return user
        case .miss(let current): epoch = current
        }
        guard let user = try await user(id: id) else { return nil }
        userCache.remember(user, now: now, epoch: epoch)
        return user
    }

    /// A transaction that may write `users` or `identities` (a sign-in writes
    /// `last_sign_in_at`): once it commits, ``userCache`` forgets every row.
    func changingUsers<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let result = try await driver.transaction(body)
        userCache.forgetAll()
        return result
    }

    /// Merges `metadata` into the user's metadata (a `null` value removes a key).
    ///
    /// - Throws: ``AuthError/notFound`` when the user is gone.
    /// The most `user_metadata` a user may hold, encoded.
    static let maximumMetadataBytes = 64 * 1024

    public func mergeUserMetadata(id: String, metadata: [String: JSONValue], now: Date) async throws -> UserRecord {
        try await changingUsers { db in
            guard var user = try await Self.fetchUser(id: id, on: db) else { throw AuthError.notFound }
            for (key, value) in metadata {
                if value == .null { user.userMetadata.removeValue(forKey: key) } else { user.userMetadata[key] = value }
            }
            // The cap is on what is stored, not on one merge: small merges must not add up without end.
            let encoded = try Self.encodeMetadata(user.userMetadata)
            guard encoded.utf8.count <= Self.maximumMetadataBytes else {
                throw AuthError.invalidRequest(
                    field: "data", "user_metadata would exceed \(Self.maximumMetadataBytes / 1024) KiB in total; remove keys (set them to null) first.")
            }
            user.updatedAt = now
            try await db.raw(
                """
                UPDATE users SET user_metadata = \(bind: encoded),
                updated_at = \(bind: now.stored) WHERE id = \(bind: id)
                """
            ).run()
            return user
        }
    }

    /// Deletes the user and everything they own; every session ends.
    ///
    /// Locks in the order every writer uses (user, then sessions, then refresh
    /// tokens), so a concurrent rotation or sign-in waits instead of deadlocking,
    /// and then finds the user gone.
    ///
    /// - Parameter audit: who deleted it and from where, written in the same
    ///   transaction: the entry exists exactly when the deletion does.
    public func deleteUser(id: String, audit: AuditActor? = nil) async throws {
        let flavor = driver.flavor
        try await revokingSessions(changingUsers: true) { db in
            try await db.raw("SELECT id FROM users WHERE id = \(bind: id)\(unsafeRaw: flavor.forUpdate)").run()
            try await db.raw("SELECT id FROM sessions WHERE user_id = \(bind: id)\(unsafeRaw: flavor.forUpdate)").run()
            try await db.raw(
                "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = \(bind: id))"
            ).run()
            try await db.raw("DELETE FROM sessions WHERE user_id = \(bind: id)").run()
            try await db.raw("DELETE FROM activities WHERE user_id = \(bind: id)").run()
            try await db.raw("DELETE FROM identities WHERE user_id = \(bind: id)").run()
            try await Self.deletePasskeys(userID: id, on: db)
            try await db.raw("DELETE FROM oauth_flows WHERE user_id = \(bind: id)").run()
            try await db.raw("DELETE FROM email_change_codes WHERE user_id = \(bind: id)").run()
            try await Self.deleteFactors(userID: id, on: db)
            try await db.raw(
                "DELETE FROM one_time_tokens WHERE email = (SELECT email FROM users WHERE id = \(bind: id))"
            ).run()
            try await db.raw("DELETE FROM users WHERE id = \(bind: id)").run()
            if let audit {
                try await Self.insertAudit(
                    actor: audit.actor, action: "user_deleted", target: id, ip: audit.ip, details: audit.details, now: audit.now,
                    on: db)
            }
        }
    }
}

extension AuthStore {
    /// Replaces the user's password hash and, in the same transaction, signs
    /// out every other session (as GoTrue does): whoever knew the old password
    /// or held a stolen token loses access with it.
    ///
    /// - Parameter keeping: the session that made the change, which stays signed in.
    /// - Throws: ``AuthError/notFound`` when the user is gone.
    /// - Parameter ip: where the change came from, for the audit entry
    ///   (`password_changed`, written in the same transaction).
    public func changePassword(userID: String, hash: String, keeping: String?, now: Date, ip: String? = nil) async throws {
        try await revokingSessions(changingUsers: true) { db in
            guard
                try await db.raw("SELECT id FROM users WHERE id = \(bind: userID)\(unsafeRaw: driver.flavor.forUpdate)")
                    .first() != nil
            else { throw AuthError.notFound }
            try await db.raw(
                """
                UPDATE users SET password_hash = \(bind: hash), updated_at = \(bind: now.stored)
                WHERE id = \(bind: userID)
                """
            ).run()
            try await db.raw(
                """
                UPDATE sessions SET revoked_at = \(bind: now.stored), revoked_reason = 'password_changed'
                WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND id <> \(bind: keeping ?? "")
                """
            ).run()
            try await Self.insertAudit(
                actor: userID, action: "password_changed", target: userID, ip: ip, details: [:], now: now, on: db)
        }
    }
}
