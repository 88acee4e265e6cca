import Foundation
import SQLKit
import SessionCore

extension AuthStore {
    static func session(from row: any SQLRow) throws -> SessionRecord {
        SessionRecord(
            id: try row.string("id"), userID: try row.string("user_id"), createdAt: try row.date("created_at"),
            refreshedAt: try row.optionalDate("refreshed_at"), notAfter: try row.date("not_after"),
            revokedAt: try row.optionalDate("revoked_at"), revokedReason: try row.optionalString("revoked_reason"),
            userAgent: try row.optionalString("user_agent"), ip: try row.optionalString("ip"),
            activeTokenHash: try row.optionalString("active_token_hash"),
            authMethod: try row.optionalString("auth_method"), aal: try row.optionalString("aal"),
            mfaVerifiedAt: try row.optionalDate("mfa_verified_at"), factorID: try row.optionalString("factor_id"),
            dpopJKT: try row.optionalString("dpop_jkt"))
    }

    static func refreshToken(from row: any SQLRow) throws -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: try row.string("token_hash"), sessionID: try row.string("session_id"),
            parentHash: try row.optionalString("parent_hash"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), rotatedAt: try row.optionalDate("rotated_at"),
            successorHash: try row.optionalString("successor_hash"),
            sealedSuccessor: try row.optionalString("sealed_successor"), recoveredAt: try row.optionalDate("recovered_at"),
            recoveries: try row.int("recoveries"))
    }

    static func insertRefreshToken(_ record: RefreshTokenRecord, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO refresh_tokens (token_hash, session_id, parent_hash, created_at, expires_at)
            VALUES (\(bind: record.tokenHash), \(bind: record.sessionID), \(bind: record.parentHash),
            \(bind: record.createdAt.stored), \(bind: record.expiresAt.stored))
            """
        ).run()
    }

    /// Starts a session for `userID` and issues its first refresh token.
    ///
    /// - Returns: the session and the plaintext refresh token (stored only as a hash).
    public func createSession(
        userID: String, userAgent: String?, ip: String?, now: Date, refreshTokenTTL: TimeInterval,
        absoluteTTL: TimeInterval, method: String = "password"
    ) async throws -> (session: SessionRecord, refreshToken: String) {
        try await changingUsers { db in
            try await Self.insertSession(
                userID: userID, userAgent: userAgent, ip: ip, now: now, refreshTokenTTL: refreshTokenTTL,
                absoluteTTL: absoluteTTL, method: method, on: db)
        }
    }

    /// ``createSession(userID:userAgent:ip:now:refreshTokenTTL:absoluteTTL:method:)`` inside a caller's transaction.
    static func insertSession(
        userID: String, userAgent: String?, ip: String?, now: Date, refreshTokenTTL: TimeInterval,
        absoluteTTL: TimeInterval, method: String, on db: any SQLDatabase
    ) async throws -> (session: SessionRecord, refreshToken: String) {
        let token = RefreshTokenCodec.generate()
        let tokenHash = RefreshTokenCodec.hash(token)
        let session = SessionRecord(
            id: UUID().uuidString.lowercased(), userID: userID, createdAt: now, refreshedAt: nil,
            notAfter: now.addingTimeInterval(absoluteTTL), revokedAt: nil, revokedReason: nil,
            userAgent: userAgent.map { String($0.prefix(256)) }, ip: ip, activeTokenHash: tokenHash, authMethod: method)
        let record = RefreshTokenRecord(
            tokenHash: tokenHash, sessionID: session.id, parentHash: nil, createdAt: now,
            expiresAt: min(now.addingTimeInterval(refreshTokenTTL), session.notAfter))
        // The user row first, as deleteUser and rotate take it: it locks the row
        // and proves it still exists. A user deleted while their password was
        // being checked gets no session.
        // A banned user gets no session, however they proved who they are.
        guard
            try await db.raw(
                """
                UPDATE users SET last_sign_in_at = \(bind: now.stored) WHERE id = \(bind: userID)
                AND (banned_until IS NULL OR banned_until <= \(bind: now.stored)) RETURNING id
                """
            ).first() != nil
        else {
            let exists = try await db.raw("SELECT id FROM users WHERE id = \(bind: userID)").first() != nil
            throw exists ? AuthError.userBanned : AuthError.invalidCredentials
        }
        try await db.raw(
            """
            INSERT INTO sessions (id, user_id, created_at, not_after, user_agent, ip, active_token_hash, auth_method)
            VALUES (\(bind: session.id), \(bind: userID), \(bind: now.stored), \(bind: session.notAfter.stored),
            \(bind: session.userAgent), \(bind: ip), \(bind: tokenHash), \(bind: method))
            """
        ).run()
        try await insertRefreshToken(record, on: db)
        try await insertAudit(
            actor: userID, action: "login", target: session.id, ip: ip, details: ["method": .string(method)], now: now, on: db)
        return (session, token)
    }

    /// The session with `id`, revoked or not.
    public func session(id: String) async throws -> SessionRecord? {
        try await driver.transaction { db in
            try await db.raw("SELECT * FROM sessions WHERE id = \(bind: id)").first().map(Self.session(from:))
        }
    }

    /// The session with `id` when its user still exists and is not banned at
    /// `now`: a session row left behind by a deleted user (a race, a
    /// hand-edited database) is never live, and a ban refuses every access
    /// token at once on every route behind ``AuthMiddleware`` (issue 37, item 7),
    /// not only at the next refresh.
    func sessionOfExistingUser(id: String, now: Date) async throws -> SessionRecord? {
        try await driver.transaction { db in
            try await db.raw(
                """
                SELECT s.* FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = \(bind: id)
                AND (u.banned_until IS NULL OR u.banned_until <= \(bind: now.stored))
                """
            ).first().map(Self.session(from:))
        }
    }

    /// The user's sessions that are still usable at `now`, newest first.
    public func activeSessions(userID: String, now: Date) async throws -> [SessionRecord] {
        try await driver.transaction { db in
            try await db.raw(
                """
                SELECT * FROM sessions WHERE user_id = \(bind: userID) AND revoked_at IS NULL
                AND not_after > \(bind: now.stored) ORDER BY created_at DESC
                """
            ).all().map(Self.session(from:))
        }
    }

    /// Ends one session of `userID`.
    ///
    /// - Returns: `false` when the user has no such active session.
    @discardableResult
    public func revokeSession(id: String, userID: String, reason: String, now: Date) async throws -> Bool {
        try await revokingSessions(revoked: { $0 }) { db in
            let rows = try await db.raw(
                """
                SELECT id FROM sessions WHERE id = \(bind: id) AND user_id = \(bind: userID) AND revoked_at IS NULL
                """
            ).all()
            guard !rows.isEmpty else { return false }
            try await db.raw(
                """
                UPDATE sessions SET revoked_at = \(bind: now.stored), revoked_reason = \(bind: reason)
                WHERE id = \(bind: id)
                """
            ).run()
            return true
        }
    }

    /// Ends every session of `userID`, except `keeping` when given.
    public func revokeSessions(userID: String, keeping: String?, reason: String, now: Date) async throws {
        try await revokingSessions { db in
            try await db.raw(
                """
                UPDATE sessions SET revoked_at = \(bind: now.stored), revoked_reason = \(bind: reason)
                WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND id <> \(bind: keeping ?? "")
                """
            ).run()
        }
    }

    /// Every refresh token row of a session (tests use this to check only hashes are stored).
    public func refreshTokens(sessionID: String) async throws -> [RefreshTokenRecord] {
        try await driver.transaction { db in
            try await db.raw(
                "SELECT * FROM refresh_tokens WHERE session_id = \(bind: sessionID) ORDER BY created_at"
            ).all().map(Self.refreshToken(from:))
        }
    }

    /// Deletes refresh tokens and sessions that ended (expired, past their
    /// cap, or revoked) more than `revokedRetention` ago.
    ///
    /// Kept that long, not deleted the moment they end: a refresh that comes
    /// just after the end still reads `session_expired`, not
    /// `refresh_token_not_found` or `session_not_found` (the pruner deleting
    /// the row between a rotation's two reads on PostgreSQL made a CI run
    /// answer the latter). A day of dead rows costs nothing.
    ///
    /// - Returns: how many refresh token rows were deleted.
    @discardableResult
    public func pruneExpired(now: Date, revokedRetention: TimeInterval = 86_400) async throws -> Int {
        let cutoff = now.addingTimeInterval(-revokedRetention).stored
        // In bounded batches, each its own transaction (AuthStore+Prune.swift).
        let pruned = try await pruneDeadSessions(cutoff: cutoff)
        return try await driver.transaction { db in
            // Finished or abandoned OAuth flows; kept a day so a replay reads "already used", not "unknown".
            try await db.raw("DELETE FROM oauth_flows WHERE state_expires_at <= \(bind: cutoff)").run()
            try await Self.pruneRateLimits(before: now, on: db)
            try await Self.pruneOneTimeTokens(before: now, on: db)
            try await Self.pruneEmailChangeCodes(before: now, on: db)
            try await Self.pruneWebAuthnChallenges(before: now, on: db)
            // Signed-out-by-expiry pages and consoles (issue 29, item 8): nothing else deletes them.
            _ = try await Self.pruneWebSessions(before: now, on: db)
            try await Self.pruneUnverifiedFactors(before: now, on: db)
            try await Self.pruneDPoPProofs(before: now, on: db)
            return pruned
        }
    }
}
