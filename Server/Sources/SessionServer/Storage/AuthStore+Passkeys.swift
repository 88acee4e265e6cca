import Foundation
import SQLKit
import SessionCore

/// Passkeys and their ceremony challenges (docs/PASSKEYS.md). Every change
/// writes its audit entry in its own transaction: the entry exists exactly
/// when the change does.
extension AuthStore {
    /// Stores a new challenge.
    func createWebAuthnChallenge(
        kind: WebAuthnChallengeRecord.Kind, userID: String?, challenge: [UInt8], now: Date, lifetime: TimeInterval
    ) async throws -> WebAuthnChallengeRecord {
        let record = WebAuthnChallengeRecord(
            id: UUID().uuidString.lowercased(), kind: kind, userID: userID, challenge: challenge,
            expiresAt: now.addingTimeInterval(lifetime))
        try await driver.transaction { db in
            try await db.raw(
                """
                INSERT INTO webauthn_challenges (id, kind, user_id, challenge, created_at, expires_at)
                VALUES (\(bind: record.id), \(bind: kind.rawValue), \(bind: userID),
                \(bind: Base64URL.encode(Data(challenge))), \(bind: now.stored), \(bind: record.expiresAt.stored))
                """
            ).run()
        }
        return record
    }

    /// Takes the challenge out of the store, so it is used at most once,
    /// whatever the outcome of the ceremony. Only the challenge of this
    /// ceremony kind and person is taken: another's stays for its owner.
    ///
    /// - Returns: the challenge, expired or not; `nil` when there is none.
    func consumeWebAuthnChallenge(
        id: String, kind: WebAuthnChallengeRecord.Kind, userID: String?
    ) async throws -> WebAuthnChallengeRecord? {
        let forUpdate = driver.flavor.forUpdate
        return try await driver.transaction { db in
            guard
                let row = try await db.raw(
                    "SELECT * FROM webauthn_challenges WHERE id = \(bind: id) AND kind = \(bind: kind.rawValue)\(unsafeRaw: forUpdate)"
                ).first(),
                try row.optionalString("user_id") == userID
            else { return nil }
            try await db.raw("DELETE FROM webauthn_challenges WHERE id = \(bind: id)").run()
            return WebAuthnChallengeRecord(
                id: id, kind: kind, userID: userID, challenge: Array(Base64URL.decode(try row.string("challenge")) ?? Data()),
                expiresAt: try row.date("expires_at"))
        }
    }

    /// The user's passkeys, oldest first.
    func passkeys(userID: String) async throws -> [PasskeyRecord] {
        try await driver.read { db in
            try await db.raw(
                "SELECT * FROM webauthn_credentials WHERE user_id = \(bind: userID) ORDER BY created_at, id"
            ).all().map(Self.passkey(from:))
        }
    }

    /// The passkey whose credential ID (base64url) this is, whoever owns it.
    func passkey(credentialID: String) async throws -> PasskeyRecord? {
        try await driver.read { db in
            try await db.raw("SELECT * FROM webauthn_credentials WHERE credential_id = \(bind: credentialID)").first()
                .map(Self.passkey(from:))
        }
    }

    /// Adds a verified passkey to its user's account.
    ///
    /// - Throws: ``AuthError/webauthnCredentialExists`` when the credential ID
    ///   is registered already (to anyone); ``AuthError/tooManyPasskeys(limit:)``
    ///   past `maximum`; ``AuthError/notFound`` when the user is gone.
    func insertPasskey(_ record: PasskeyRecord, maximum: Int, ip: String?) async throws {
        let forUpdate = driver.flavor.forUpdate
        try await driver.transaction { db in
            // The user row first, as every writer takes it: two registrations at once count in turn.
            guard
                try await db.raw("SELECT id FROM users WHERE id = \(bind: record.userID)\(unsafeRaw: forUpdate)").first() != nil
            else { throw AuthError.notFound }
            guard
                try await db.raw(
                    "SELECT id FROM webauthn_credentials WHERE credential_id = \(bind: record.credentialID)"
                ).first() == nil
            else { throw AuthError.webauthnCredentialExists }
            let count = try await db.raw(
                "SELECT COUNT(*) AS n FROM webauthn_credentials WHERE user_id = \(bind: record.userID)"
            ).first()?.decode(column: "n", as: Int.self) ?? 0
            guard count < maximum else { throw AuthError.tooManyPasskeys(limit: maximum) }
            try await db.raw(
                """
                INSERT INTO webauthn_credentials (id, user_id, credential_id, public_key, algorithm, sign_count,
                backup_eligible, backed_up, transports, aaguid, friendly_name, created_at, last_used_at)
                VALUES (\(bind: record.id), \(bind: record.userID), \(bind: record.credentialID),
                \(bind: Data(record.publicKey).base64EncodedString()), \(bind: record.algorithm), \(bind: Int(record.signCount)),
                \(bind: record.backupEligible ? 1 : 0), \(bind: record.backedUp ? 1 : 0),
                \(bind: record.transports.joined(separator: ",")), \(bind: record.aaguid), \(bind: record.friendlyName),
                \(bind: record.createdAt.stored), NULL)
                """
            ).run()
            try await Self.insertAudit(
                actor: record.userID, action: "passkey_registered", target: record.id, ip: ip,
                details: ["algorithm": .number(Double(record.algorithm)), "backup_eligible": .bool(record.backupEligible)],
                now: record.createdAt, on: db)
        }
    }

    /// Records a verified sign-in with the passkey: its counter and backup state, and when.
    ///
    /// - Throws: ``AuthError/webauthnVerificationFailed(_:)`` when another sign-in with the
    ///   same credential moved the counter past `signCount` meanwhile (a cloned key racing the real one).
    func recordPasskeyUse(
        id: String, signCount: UInt32, backedUp: Bool, verifiedAgainst previous: UInt32, now: Date, ip: String?
    ) async throws {
        let forUpdate = driver.flavor.forUpdate
        try await driver.transaction { db in
            guard
                let row = try await db.raw(
                    "SELECT user_id, sign_count FROM webauthn_credentials WHERE id = \(bind: id)\(unsafeRaw: forUpdate)"
                ).first()
            else { throw AuthError.webauthnVerificationFailed("the passkey was removed.") }
            guard try row.decode(column: "sign_count", as: Int.self) == Int(previous) else {
                throw AuthError.webauthnVerificationFailed("the signature counter moved during this sign-in.")
            }
            try await db.raw(
                """
                UPDATE webauthn_credentials SET sign_count = \(bind: Int(signCount)), backed_up = \(bind: backedUp ? 1 : 0),
                last_used_at = \(bind: now.stored) WHERE id = \(bind: id)
                """
            ).run()
            try await Self.insertAudit(
                actor: try row.string("user_id"), action: "passkey_used", target: id, ip: ip, details: [:], now: now, on: db)
        }
    }

    /// Renames one of the user's passkeys.
    ///
    /// - Returns: the passkey renamed; `nil` when the user has no passkey with this id.
    func renamePasskey(id: String, userID: String, name: String, now: Date, ip: String?) async throws -> PasskeyRecord? {
        try await driver.transaction { db in
            try await db.raw(
                "UPDATE webauthn_credentials SET friendly_name = \(bind: name) WHERE id = \(bind: id) AND user_id = \(bind: userID)"
            ).run()
            guard
                let row = try await db.raw(
                    "SELECT * FROM webauthn_credentials WHERE id = \(bind: id) AND user_id = \(bind: userID)"
                ).first()
            else { return nil }
            try await Self.insertAudit(actor: userID, action: "passkey_renamed", target: id, ip: ip, details: [:], now: now, on: db)
            return try Self.passkey(from: row)
        }
    }

    /// Removes one of the user's passkeys.
    ///
    /// - Returns: whether there was one to remove.
    func deletePasskey(id: String, userID: String, now: Date, ip: String?) async throws -> Bool {
        try await driver.transaction { db in
            guard
                try await db.raw(
                    "SELECT id FROM webauthn_credentials WHERE id = \(bind: id) AND user_id = \(bind: userID)"
                ).first() != nil
            else { return false }
            try await db.raw("DELETE FROM webauthn_credentials WHERE id = \(bind: id)").run()
            try await Self.insertAudit(actor: userID, action: "passkey_removed", target: id, ip: ip, details: [:], now: now, on: db)
            return true
        }
    }

    /// Deletes every passkey of a user being deleted, in the deletion's transaction.
    static func deletePasskeys(userID: String, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM webauthn_credentials WHERE user_id = \(bind: userID)").run()
    }

    /// Drops challenges past their expiry (run by the pruning service).
    static func pruneWebAuthnChallenges(before now: Date, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM webauthn_challenges WHERE expires_at <= \(bind: now.stored)").run()
    }

    private static func passkey(from row: any SQLRow) throws -> PasskeyRecord {
        let transports = try row.string("transports")
        return PasskeyRecord(
            id: try row.string("id"), userID: try row.string("user_id"), credentialID: try row.string("credential_id"),
            publicKey: Array(Data(base64Encoded: try row.string("public_key")) ?? Data()),
            algorithm: try row.decode(column: "algorithm", as: Int.self),
            signCount: UInt32(clamping: try row.decode(column: "sign_count", as: Int.self)),
            backupEligible: try row.decode(column: "backup_eligible", as: Int.self) != 0,
            backedUp: try row.decode(column: "backed_up", as: Int.self) != 0,
            transports: transports.isEmpty ? [] : transports.split(separator: ",").map(String.init),
            aaguid: try row.string("aaguid"), friendlyName: try row.optionalString("friendly_name"),
            createdAt: try row.date("created_at"), lastUsedAt: try row.optionalDate("last_used_at"))
    }
}
