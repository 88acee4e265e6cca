import Foundation
import SQLKit
import SessionCore

extension AuthStore {
    /// Renames `factorID` of `userID` (the account page, docs/MFA.md).
    ///
    /// - Returns: `false` when the user has no such factor.
    /// - Throws: `mfa_factor_name_conflict` when another of the user's factors has that name, as enrolment does.
    func renameFactor(id factorID: String, userID: String, to name: String, ip: String?, now: Date) async throws -> Bool {
        // Through ``changingUsers(_:)``: the cached user lists its factors' names.
        try await changingUsers { db in
            let existing = try await Self.fetchFactors(userID: userID, on: db)
            guard existing.contains(where: { $0.id == factorID }) else { return false }
            if existing.contains(where: { $0.id != factorID && $0.friendlyName == name }) {
                throw AuthError.mfaRefused(
                    "mfa_factor_name_conflict", "A factor with the friendly name \"\(name)\" for this user already exists")
            }
            try await db.raw(
                """
                UPDATE mfa_factors SET friendly_name = \(bind: name), updated_at = \(bind: now.stored)
                WHERE id = \(bind: factorID) AND user_id = \(bind: userID)
                """
            ).run()
            try await Self.insertAudit(
                actor: userID, action: "factor_renamed", target: factorID, ip: ip, details: ["user_id": .string(userID)],
                now: now, on: db)
            return true
        }
    }
}
