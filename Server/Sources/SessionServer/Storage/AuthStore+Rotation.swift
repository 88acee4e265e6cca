import Foundation
import SQLKit
import SessionCore

extension AuthStore {
    /// What a rotation transaction decided. A rejection is returned, not
    /// thrown, so the transaction still commits what it wrote (a family
    /// revoked on reuse must stay revoked).
    private enum RotationStep: Sendable {
        case grant(RefreshGrant)
        case reject(AuthError)
        /// This call found the reuse and revoked the family. Later tries with
        /// any token of the family get the same error but are not new detections.
        case revokedOnReuse(SessionRecord)

        var revokedASession: Bool {
            if case .revokedOnReuse = self { true } else { false }
        }
    }

    /// Exchanges a refresh token for its successor, in one transaction.
    ///
    /// The user row is held first (`FOR KEY SHARE`: it cannot be deleted
    /// meanwhile), then the session row is locked (`FOR UPDATE` on PostgreSQL;
    /// the one writer on SQLite): the order ``deleteUser(id:)`` takes them in,
    /// so the two cannot deadlock. Two refreshes with the same token serialize:
    /// the first rotates, the second finds a token rotated a moment ago and takes
    /// the grace path to the same successor.
    ///
    /// - Throws: ``AuthError/refreshTokenNotFound`` (unknown or signed out),
    ///   ``AuthError/refreshTokenAlreadyUsed`` (reuse: the family is revoked),
    ///   ``AuthError/sessionExpired`` (inactivity or absolute cap),
    ///   ``AuthError/sessionNotFound`` (the session row is gone).
    /// - Parameter onReuseDetected: called once, after the commit, with the
    ///   family this call revoked for reuse (not when the family was already
    ///   revoked), so a reuse counter counts thefts, not the tries after them.
    public func rotate(
        refreshToken presented: String, now: Date, policy: RotationPolicy,
        onReuseDetected: @Sendable (SessionRecord) -> Void = { _ in }
    ) async throws -> RefreshGrant {
        let presentedHash = RefreshTokenCodec.hash(presented)
        // Made before the transaction: its random bytes, hash and sealing (HKDF, AES-GCM) then run
        // outside the lock every other rotation waits for (SQLite's one writer, PostgreSQL's session
        // row), where they were most of the rotation's own work under it (docs/BENCHMARKS.md,
        // "Item 4: the request path's misses"). A rotation that ends another way discards it.
        let draft = try SuccessorDraft(parent: presented)
        let flavor = driver.flavor
        // Only a detected reuse ends a session; a granted rotation keeps every cached answer.
        let step: RotationStep = try await revokingSessions(revoked: { $0.revokedASession }) { db in
            // One statement finds the token and its session's user (a session's
            // user never changes, so this read is safe to lock by).
            guard
                let found = try await db.raw(
                    """
                    SELECT refresh_tokens.*, sessions.user_id AS session_user_id FROM refresh_tokens
                    JOIN sessions ON sessions.id = refresh_tokens.session_id
                    WHERE refresh_tokens.token_hash = \(bind: presentedHash)
                    """
                ).first()
            else { return .reject(.refreshTokenNotFound) }
            let userID = try found.string("session_user_id")
            // Held first, and read in the same statement: the row the token response shows.
            guard
                var user = try await db.raw("SELECT * FROM users WHERE id = \(bind: userID)\(unsafeRaw: flavor.forKeyShare)")
                    .first().map(Self.user(from:))
            else {
                // The user was deleted (or is being deleted and just committed): nothing to refresh.
                return .reject(.sessionNotFound)
            }
            let sessionID = try found.string("session_id")
            guard
                let sessionRow = try await db.raw(
                    "SELECT * FROM sessions WHERE id = \(bind: sessionID)\(unsafeRaw: flavor.forUpdate)"
                ).first()
            else { return .reject(.sessionNotFound) }
            var session = try Self.session(from: sessionRow)
            let token: RefreshTokenRecord
            if flavor == .sqlite {
                // SQLite's one writer has held this transaction since BEGIN IMMEDIATE: the first read was already locked.
                token = try Self.refreshToken(from: found)
            } else {
                // Read the token again under the lock: a concurrent rotation may have just committed.
                guard
                    let tokenRow = try await db.raw(
                        "SELECT * FROM refresh_tokens WHERE token_hash = \(bind: presentedHash)"
                    ).first()
                else { return .reject(.refreshTokenNotFound) }
                token = try Self.refreshToken(from: tokenRow)
            }
            if session.isRevoked {
                return .reject(session.revokedReason == "reuse" ? .refreshTokenAlreadyUsed : .refreshTokenNotFound)
            }
            if now >= session.notAfter { return .reject(.sessionExpired) }
            // Refused before anything changes: when the ban ends, this token still works.
            if user.isBanned(at: now) { return .reject(.userBanned) }
            // One statement for both: a round trip fewer on every refresh (docs/BENCHMARKS.md, "Item 4").
            let (identities, factors) = try await Self.fetchIdentitiesAndFactors(userID: userID, on: db)
            user.identities = identities
            user.factors = factors.map(\.userFactor)

            guard let rotatedAt = token.rotatedAt else {
                // The active token: rotate it.
                if now >= token.expiresAt { return .reject(.sessionExpired) }
                let successor = try await Self.issueSuccessor(
                    draft, of: token, session: &session, now: now, policy: policy, on: db)
                return .grant(RefreshGrant(refreshToken: successor, session: session, user: user, outcome: .rotated))
            }

            guard let successorHash = token.successorHash, let sealed = token.sealedSuccessor else {
                return .reject(.refreshTokenNotFound)
            }
            let successorRow = try await db.raw(
                "SELECT * FROM refresh_tokens WHERE token_hash = \(bind: successorHash)"
            ).first().map(Self.refreshToken(from:))

            // A factor verify swapped this token out (AuthStore+FactorVerification.swift): its successor is
            // sealed under the KEK, as the server never held this token's plaintext there.
            let swappedByVerify = sealed.hasPrefix(KeyEncryptionKey.prefix)
            if let successorRow, now.timeIntervalSince(rotatedAt) <= policy.grace, now < successorRow.expiresAt {
                // Within the grace: a concurrent request or a quick retry gets the same successor.
                let successor =
                    swappedByVerify
                    ? try policy.keyEncryptionKey.open(sealed, kid: RefreshTokenCodec.verifySuccessorBinding(parentHash: presentedHash))
                    : try RefreshTokenCodec.open(sealed: sealed, parent: presented)
                return .grant(
                    RefreshGrant(refreshToken: successor, session: session, user: user, outcome: .replayedWithinGrace))
            }
            // Past the grace, an AAL1 token of before a verify is never handed the AAL2 session it did
            // not prove (docs/MFA.md, "The session after verify"): no recovery, a reuse as any other.
            let recovers = policy.recoversUnsavedSuccessors && !swappedByVerify
            let recoveredAt = token.recoveredAt
            if recovers, let successorRow, successorRow.rotatedAt == nil,
                session.activeTokenHash == successorHash, now < successorRow.expiresAt, let recoveredAt,
                now.timeIntervalSince(recoveredAt) <= policy.grace
            {
                // The answer to a recovery was lost too and the client retried at once: the same recovery.
                let successor = try RefreshTokenCodec.open(sealed: sealed, parent: presented)
                return .grant(
                    RefreshGrant(refreshToken: successor, session: session, user: user, outcome: .recoveredUnsavedSuccessor))
            }
            if recovers, let successorRow, successorRow.rotatedAt == nil,
                session.activeTokenHash == successorHash, now < successorRow.expiresAt,
                token.recoveries < policy.recoveriesPerRotation
            {
                // The successor was never used: the client crashed before saving it, or lost the answer.
                // Hand it over again, a bounded number of times (issue 29, item 12): beyond that, the
                // parent is presented by more than one holder or by a replaying thief.
                let successor = try RefreshTokenCodec.open(sealed: sealed, parent: presented)
                try await db.raw(
                    """
                    UPDATE refresh_tokens SET recovered_at = \(bind: now.stored), recoveries = \(bind: token.recoveries + 1)
                    WHERE token_hash = \(bind: presentedHash)
                    """
                ).run()
                try await Self.insertAudit(
                    actor: "system", action: "successor_recovered", target: session.userID, ip: nil,
                    details: [
                        "session_id": .string(session.id),
                        "seconds_since_rotation": .number(now.timeIntervalSince(rotatedAt).rounded()),
                        "recovery": .number(Double(token.recoveries + 1)),
                    ], now: now, on: db)
                return .grant(
                    RefreshGrant(
                        refreshToken: successor, session: session, user: user, outcome: .recoveredUnsavedSuccessor))
            }

            if recovers, let successorRow, successorRow.rotatedAt == nil,
                session.activeTokenHash == successorHash, now >= successorRow.expiresAt
            {
                // The unsaved successor outlived its lifetime unused: the family
                // expired from inactivity; nobody reused anything.
                return .reject(.sessionExpired)
            }

            // Reuse outside the grace (RFC 9700 §4.14): someone else may hold the family. End it.
            try await db.raw(
                """
                UPDATE sessions SET revoked_at = \(bind: now.stored), revoked_reason = 'reuse'
                WHERE id = \(bind: session.id)
                """
            ).run()
            try await Self.insertAudit(
                actor: "system", action: "token_reuse_detected", target: session.userID, ip: nil,
                details: ["session_id": .string(session.id)], now: now, on: db)
            return .revokedOnReuse(session)
        }
        switch step {
        case .grant(let grant): return grant
        case .reject(let error): throw error
        case .revokedOnReuse(let session):
            onReuseDetected(session)
            throw AuthError.refreshTokenAlreadyUsed
        }
    }

    private static func issueSuccessor(
        _ draft: SuccessorDraft, of token: RefreshTokenRecord, session: inout SessionRecord, now: Date,
        policy: RotationPolicy, on db: any SQLDatabase
    ) async throws -> String {
        let (successor, successorHash, sealed) = (draft.token, draft.hash, draft.sealed)
        // Sliding lifetime, never past the session's absolute cap.
        let record = RefreshTokenRecord(
            tokenHash: successorHash, sessionID: session.id, parentHash: token.tokenHash, createdAt: now,
            expiresAt: min(now.addingTimeInterval(policy.refreshTokenTTL), session.notAfter))
        try await insertRefreshToken(record, on: db)
        try await db.raw(
            """
            UPDATE refresh_tokens SET rotated_at = \(bind: now.stored), successor_hash = \(bind: successorHash),
            sealed_successor = \(bind: sealed) WHERE token_hash = \(bind: token.tokenHash)
            """
        ).run()
        try await db.raw(
            """
            UPDATE sessions SET refreshed_at = \(bind: now.stored), active_token_hash = \(bind: successorHash)
            WHERE id = \(bind: session.id)
            """
        ).run()
        session.refreshedAt = now
        session.activeTokenHash = successorHash
        return successor
    }
}

/// A successor refresh token, its hash and its sealed form (under a key derived from
/// the parent it replaces), made before the rotation's transaction.
private struct SuccessorDraft: Sendable {
    let token: String
    let hash: String
    let sealed: String

    init(parent presented: String) throws {
        token = RefreshTokenCodec.generate()
        hash = RefreshTokenCodec.hash(token)
        sealed = try RefreshTokenCodec.seal(successor: token, parent: presented)
    }
}
