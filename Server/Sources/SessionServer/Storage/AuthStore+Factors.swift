import Foundation
import SQLKit
import SessionCore

/// Second factors and their challenges (docs/MFA.md).
extension AuthStore {
    static func factor(from row: any SQLRow) throws -> FactorRecord {
        FactorRecord(
            id: try row.string("id"), userID: try row.string("user_id"), friendlyName: try row.optionalString("friendly_name"),
            factorType: try row.string("factor_type"), status: try row.string("status"), sealedSecret: try row.string("secret"),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
            lastChallengedAt: try row.optionalDate("last_challenged_at"),
            lastStep: try row.optionalInt64("last_step"))
    }

    /// The user's factors, oldest first.
    func factors(userID: String) async throws -> [FactorRecord] {
        try await driver.transaction { db in try await Self.fetchFactors(userID: userID, on: db) }
    }

    static func fetchFactors(userID: String, on db: any SQLDatabase) async throws -> [FactorRecord] {
        try await db.raw("SELECT * FROM mfa_factors WHERE user_id = \(bind: userID) ORDER BY created_at, id")
            .all().map(Self.factor(from:))
    }

    /// The factor `id` when it is `userID`'s: another user's factor is as unknown as a missing one.
    func factor(id: String, userID: String) async throws -> FactorRecord? {
        try await driver.transaction { db in
            try await db.raw("SELECT * FROM mfa_factors WHERE id = \(bind: id) AND user_id = \(bind: userID)")
                .first().map(Self.factor(from:))
        }
    }

    /// The limits GoTrue checks before an enrolment (`validateFactors` in its `internal/api/mfa.go`).
    struct EnrolmentRules: Sendable {
        var maximumEnrolled: Int
        var maximumVerified: Int
        /// Whether the enrolling session is at `aal2`.
        var sessionIsAAL2: Bool
    }

    /// Stores a new unverified factor, after the limits and the AAL rule are checked in the same transaction.
    ///
    /// - Throws: ``AuthError/insufficientAAL(status:_:)`` (403) when the user has a verified factor and the
    ///   session is not `aal2`; `mfa_factor_name_conflict` and `too_many_enrolled_mfa_factors` as GoTrue.
    func insertFactor(_ factor: FactorRecord, rules: EnrolmentRules, ip: String?) async throws {
        // Through ``changingUsers(_:)``: the cached user lists its factors.
        try await changingUsers { db in
            let existing = try await Self.fetchFactors(userID: factor.userID, on: db)
            let verified = existing.filter(\.isVerified).count
            if verified > 0, !rules.sessionIsAAL2 {
                throw AuthError.insufficientAAL(status: 403, "AAL2 required to enroll a new factor")
            }
            if let name = factor.friendlyName, existing.contains(where: { $0.friendlyName == name }) {
                throw AuthError.mfaRefused(
                    "mfa_factor_name_conflict", "A factor with the friendly name \"\(name)\" for this user already exists")
            }
            if existing.count >= rules.maximumEnrolled || verified >= rules.maximumVerified {
                throw AuthError.mfaRefused(
                    "too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue")
            }
            try await db.raw(
                """
                INSERT INTO mfa_factors (id, user_id, friendly_name, factor_type, status, secret, created_at, updated_at)
                VALUES (\(bind: factor.id), \(bind: factor.userID), \(bind: factor.friendlyName), \(bind: factor.factorType),
                \(bind: factor.status), \(bind: factor.sealedSecret), \(bind: factor.createdAt.stored), \(bind: factor.updatedAt.stored))
                """
            ).run()
            try await Self.insertAudit(
                actor: factor.userID, action: "factor_enrolled", target: factor.id, ip: ip,
                details: ["factor_type": .string(factor.factorType)], now: factor.createdAt, on: db)
        }
    }

    /// A new challenge for `factor`, and the factor's `last_challenged_at`.
    func insertChallenge(_ challenge: ChallengeRecord) async throws {
        try await changingUsers { db in
            try await db.raw(
                """
                INSERT INTO mfa_challenges (id, factor_id, created_at, ip)
                VALUES (\(bind: challenge.id), \(bind: challenge.factorID), \(bind: challenge.createdAt.stored), \(bind: challenge.ip))
                """
            ).run()
            try await db.raw(
                """
                UPDATE mfa_factors SET last_challenged_at = \(bind: challenge.createdAt.stored)
                WHERE id = \(bind: challenge.factorID)
                """
            ).run()
        }
    }

    /// Removes `factorID` of `userID` and its challenges; sessions that reached
    /// `aal2` with it go back to `aal1`, as GoTrue's `DowngradeSessionsToAAL1`.
    ///
    /// - Returns: `false` when the user has no such factor.
    func deleteFactor(id factorID: String, userID: String, actor: String, ip: String?, now: Date) async throws -> Bool {
        // A session's level changed: remembered session answers must not outlive it.
        let deleted = try await revokingSessions(changingUsers: true, revoked: { $0 }) { db in
            guard
                try await db.raw(
                    "SELECT id FROM mfa_factors WHERE id = \(bind: factorID) AND user_id = \(bind: userID)"
                ).first() != nil
            else { return false }
            try await db.raw("DELETE FROM mfa_challenges WHERE factor_id = \(bind: factorID)").run()
            try await db.raw("DELETE FROM mfa_factors WHERE id = \(bind: factorID)").run()
            try await db.raw(
                """
                UPDATE sessions SET aal = 'aal1', mfa_verified_at = NULL, factor_id = NULL
                WHERE user_id = \(bind: userID) AND factor_id = \(bind: factorID)
                """
            ).run()
            try await Self.insertAudit(
                actor: actor, action: "factor_unenrolled", target: factorID, ip: ip, details: ["user_id": .string(userID)],
                now: now, on: db)
            return true
        }
        return deleted
    }

    /// Unverified factors older than a day (GoTrue's `MFA_FACTOR_EXPIRY_DURATION`), and challenges of that age.
    static func pruneUnverifiedFactors(before now: Date, on db: any SQLDatabase) async throws {
        let cutoff = now.addingTimeInterval(-86_400).stored
        try await db.raw("DELETE FROM mfa_challenges WHERE created_at <= \(bind: cutoff)").run()
        // `= unverified`, not `<> verified` (the same rows: a factor is one or the
        // other), so the index on (status, created_at) serves it (issue 44, item 3).
        try await db.raw(
            "DELETE FROM mfa_factors WHERE status = \(bind: FactorRecord.unverified) AND created_at <= \(bind: cutoff)"
        ).run()
    }

    /// Deletes every factor of a user being deleted (inside ``deleteUser(id:audit:)``'s transaction).
    static func deleteFactors(userID: String, on db: any SQLDatabase) async throws {
        try await db.raw(
            "DELETE FROM mfa_challenges WHERE factor_id IN (SELECT id FROM mfa_factors WHERE user_id = \(bind: userID))"
        ).run()
        try await db.raw("DELETE FROM mfa_factors WHERE user_id = \(bind: userID)").run()
    }
}
