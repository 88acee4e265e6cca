import Foundation
import SQLKit
import SessionCore

/// Anonymous users (docs/ACCOUNTS.md, "Anonymous users (server)").
extension AuthStore {
    /// Creates an anonymous user: no email, no password, `is_anonymous` set,
    /// `metadata` as its `user_metadata` (GoTrue's `SignupAnonymously`).
    ///
    /// - Parameter audit: who created it, written in the same transaction.
    public func createAnonymousUser(
        metadata: [String: JSONValue], now: Date, audit: AuditActor? = nil
    ) async throws -> UserRecord {
        var anonymous = UserRecord(
            id: UUID().uuidString.lowercased(), email: nil, passwordHash: "", userMetadata: metadata,
            createdAt: now, updatedAt: now, lastSignInAt: nil, emailConfirmedAt: nil)
        anonymous.isAnonymous = true
        let record = anonymous
        let metadataText = try Self.encodeMetadata(metadata)
        return try await changingUsers { db in
            try await db.raw(
                """
                INSERT INTO users (id, email, password_hash, user_metadata, created_at, updated_at, is_anonymous)
                VALUES (\(bind: record.id), NULL, '', \(bind: metadataText), \(bind: now.stored), \(bind: now.stored), 1)
                """
            ).run()
            if let audit {
                try await Self.insertAudit(
                    actor: audit.actor, action: "user_created", target: record.id, ip: audit.ip,
                    details: audit.details.merging(["anonymous": true]) { $1 }, now: now, on: db)
            }
            return record
        }
    }

    /// Deletes every anonymous user not seen since `cutoff`: created, signed
    /// in and refreshed before it, on every session. Users who are not
    /// anonymous are never read, let alone deleted.
    ///
    /// Each user goes through ``deleteUser(id:audit:)`` (everything they own,
    /// one transaction each, audited), after a second look at the one row: a
    /// user who came back while the list was read is kept. The cutoff is weeks
    /// old, so the moment between that look and the delete is what is left.
    ///
    /// - Returns: how many users were deleted.
    public func pruneAnonymousUsers(notSeenSince cutoff: Date, now: Date) async throws -> Int {
        let ids = try await driver.read { db in
            try await db.raw(
                """
                SELECT id FROM users WHERE is_anonymous = 1
                AND COALESCE(last_sign_in_at, created_at) < \(bind: cutoff.stored)
                AND NOT EXISTS (SELECT 1 FROM sessions WHERE sessions.user_id = users.id
                  AND COALESCE(refreshed_at, created_at) >= \(bind: cutoff.stored))
                """
            ).all().map { try $0.string("id") }
        }
        var deleted = 0
        for id in ids {
            // Checked again inside: the user may have refreshed since the list was read.
            guard try await stillAbandoned(id: id, cutoff: cutoff) else { continue }
            try await deleteUser(
                id: id, audit: AuditActor(actor: "auth-server", ip: nil, details: ["reason": "prune-anonymous"], now: now))
            deleted += 1
        }
        return deleted
    }

    private func stillAbandoned(id: String, cutoff: Date) async throws -> Bool {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT id FROM users WHERE id = \(bind: id) AND is_anonymous = 1
                AND COALESCE(last_sign_in_at, created_at) < \(bind: cutoff.stored)
                AND NOT EXISTS (SELECT 1 FROM sessions WHERE sessions.user_id = users.id
                  AND COALESCE(refreshed_at, created_at) >= \(bind: cutoff.stored))
                """
            ).first() != nil
        }
    }
}
