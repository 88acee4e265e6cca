import Foundation
import SQLKit
import SessionCore

extension AuthStore {
    /// What answering a challenge decided. A refusal is returned, not thrown,
    /// so what the transaction wrote still commits (an expired challenge stays deleted).
    private enum VerificationStep: Sendable {
        case verified(FactorVerification)
        case refuse(AuthError)
    }

    /// A code accepted: the session, now `aal2`, and its new refresh token.
    struct FactorVerification: Sendable {
        var session: SessionRecord
        var refreshToken: String
        var user: UserRecord
        /// True when this code verified the factor for the first time (an enrolment).
        var newlyVerified: Bool
    }

    /// What a verify request brings, already checked outside the transaction.
    struct FactorAnswer: Sendable {
        var factorID: String
        var challengeID: String
        var userID: String
        var sessionID: String
        /// The 30-second step the code matched, `nil` when it matched none.
        var matchedStep: Int64?
        var ip: String?
        /// How long a challenge may be answered (GoTrue's `MFA_CHALLENGE_EXPIRY_DURATION`, 300 s).
        var challengeLifetime: TimeInterval
        var refreshTokenTTL: TimeInterval
        /// Seals the new refresh token for the grace of the one it replaces.
        var kek: KeyEncryptionKey
    }

    /// Answers a challenge in one transaction: the challenge must be this
    /// factor's, unanswered, from the same address and fresh; the code's step
    /// must be newer than any step accepted before (a code works once). Then
    /// the factor is verified, the session raised to `aal2` with a new refresh
    /// token, and (on enrolment) the user's other `aal1` sessions end.
    ///
    /// - Throws: ``AuthError/mfaVerificationFailed``, ``AuthError/mfaChallengeExpired``,
    ///   `mfa_factor_not_found` for another factor's challenge, ``AuthError/sessionRevoked``.
    func verifyFactor(_ answer: FactorAnswer, now: Date) async throws -> FactorVerification {
        let flavor = driver.flavor
        // A verification ends the user's other aal1 sessions on first use: the one place that clears the caches
        // (``revokingSessions(changingUsers:revoked:_:)``) forgets their remembered answers after the commit.
        let step: VerificationStep = try await revokingSessions(changingUsers: true, revoked: { step in
            if case .verified = step { true } else { false }
        }) { db in
            guard
                let challengeRow = try await db.raw(
                    """
                    SELECT * FROM mfa_challenges WHERE id = \(bind: answer.challengeID)
                    AND factor_id = \(bind: answer.factorID)\(unsafeRaw: flavor.forUpdate)
                    """
                ).first()
            else {
                // Unknown, or another factor's challenge: GoTrue's answer for both.
                return .refuse(.mfaRefused("mfa_factor_not_found", "MFA factor with the provided challenge ID not found"))
            }
            let createdAt = try challengeRow.date("created_at")
            if try challengeRow.optionalDate("verified_at") != nil {
                // Answered already: a challenge opens one session step-up, never two.
                return .refuse(.mfaChallengeExpired)
            }
            if try challengeRow.optionalString("ip") != answer.ip {
                return .refuse(.mfaRefused("mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch."))
            }
            if now.timeIntervalSince(createdAt) >= answer.challengeLifetime {
                try await db.raw("DELETE FROM mfa_challenges WHERE id = \(bind: answer.challengeID)").run()
                return .refuse(.mfaChallengeExpired)
            }
            guard let matchedStep = answer.matchedStep else { return .refuse(.mfaVerificationFailed) }
            guard
                let factor = try await db.raw(
                    """
                    SELECT * FROM mfa_factors WHERE id = \(bind: answer.factorID) AND user_id = \(bind: answer.userID)
                    \(unsafeRaw: flavor.forUpdate)
                    """
                ).first().map(Self.factor(from:))
            else { return .refuse(.mfaFactorNotFound) }
            // The replay guard: a code's step must be newer than the last one accepted (RFC 6238 §5.2),
            // so a code seen over a shoulder or in a log is spent for the rest of its window.
            if let lastStep = factor.lastStep, matchedStep <= lastStep { return .refuse(.mfaVerificationFailed) }
            let wasVerified = factor.isVerified
            try await db.raw(
                """
                UPDATE mfa_factors SET last_step = \(bind: matchedStep), status = \(bind: FactorRecord.verified),
                updated_at = \(bind: now.stored) WHERE id = \(bind: factor.id)
                """
            ).run()
            try await db.raw(
                "UPDATE mfa_challenges SET verified_at = \(bind: now.stored) WHERE id = \(bind: answer.challengeID)"
            ).run()
            guard
                var session = try await db.raw(
                    """
                    SELECT * FROM sessions WHERE id = \(bind: answer.sessionID) AND user_id = \(bind: answer.userID)
                    AND revoked_at IS NULL\(unsafeRaw: flavor.forUpdate)
                    """
                ).first().map(Self.session(from:)),
                let user = try await Self.fetchUser(id: answer.userID, on: db)
            else { return .refuse(.sessionRevoked) }
            let refreshToken = try await Self.raiseToAAL2(&session, answer, now: now, on: db)
            if !wasVerified {
                // Enrolment: other unverified TOTP factors go, and sessions that never proved the
                // factor end, so one signed in before it (perhaps not the owner) cannot skip it (GoTrue's behaviour).
                try await db.raw(
                    """
                    DELETE FROM mfa_factors WHERE user_id = \(bind: answer.userID) AND status <> \(bind: FactorRecord.verified)
                    """
                ).run()
                try await db.raw(
                    """
                    UPDATE sessions SET revoked_at = \(bind: now.stored), revoked_reason = 'mfa_enrolled'
                    WHERE user_id = \(bind: answer.userID) AND revoked_at IS NULL AND id <> \(bind: session.id)
                    AND (aal IS NULL OR aal <> 'aal2')
                    """
                ).run()
            }
            try await Self.insertAudit(
                actor: answer.userID, action: "factor_verified", target: answer.factorID, ip: answer.ip,
                details: ["session_id": .string(session.id)], now: now, on: db)
            return .verified(FactorVerification(session: session, refreshToken: refreshToken, user: user, newlyVerified: !wasVerified))
        }
        switch step {
        case .verified(let verification):
            return verification
        case .refuse(let error):
            throw error
        }
    }

    /// Marks `session` `aal2` with the answer's factor and gives it a new refresh
    /// token: the active one is rotated out, as GoTrue's verify swaps it
    /// (`updateMFASessionAndClaims`), so the `aal1` token of before stops refreshing.
    /// The swap itself is ``swapRefreshToken(of:refreshTokenTTL:kek:now:on:)``
    /// (docs/MFA.md, "The session after verify").
    private static func raiseToAAL2(
        _ session: inout SessionRecord, _ answer: FactorAnswer, now: Date, on db: any SQLDatabase
    ) async throws -> String {
        let token = try await swapRefreshToken(
            of: &session, refreshTokenTTL: answer.refreshTokenTTL, kek: answer.kek, now: now, on: db)
        try await db.raw(
            """
            UPDATE sessions SET aal = 'aal2', mfa_verified_at = \(bind: now.stored), factor_id = \(bind: answer.factorID)
            WHERE id = \(bind: session.id)
            """
        ).run()
        session.aal = "aal2"
        session.mfaVerifiedAt = now
        session.factorID = answer.factorID
        return token
    }
}
