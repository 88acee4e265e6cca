import Foundation
import SQLKit
import SessionCore

/// Linked provider accounts: (provider, provider id) → user.
extension AuthStore {
    static func identity(from row: any SQLRow) throws -> IdentityRecord {
        IdentityRecord(
            id: try row.string("id"), userID: try row.string("user_id"), provider: try row.string("provider"),
            providerID: try row.string("provider_id"), identityData: try decodeMetadata(row.string("identity_data")),
            email: try row.optionalString("email"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"), lastSignInAt: try row.optionalDate("last_sign_in_at"))
    }

    static func fetchIdentities(userID: String, on db: any SQLDatabase) async throws -> [IdentityRecord] {
        try await db.raw("SELECT * FROM identities WHERE user_id = \(bind: userID) ORDER BY created_at, id")
            .all().map(identity(from:))
    }

    /// The user linked to `account` at `provider`, created (with its identity) when there is none.
    ///
    /// A new user gets the provider's email only when the provider verified
    /// it and no other user has it: linking to an existing account by email
    /// would let whoever controls the provider account take over that
    /// account, and an unverified address would squat an address its owner
    /// could then not sign up with. The identity keeps the address either
    /// way, as what the provider said (docs/OAUTH.md, "What the server does (and does not) keep").
    func findOrCreateUser(provider: String, account: ProviderAccount, now: Date) async throws -> UserRecord {
        let identityData = try Self.encodeMetadata(account.profile)
        let metadata = try Self.encodeMetadata(account.userMetadata)
        return try await changingUsers { db in
            let existing = try await db.raw(
                """
                SELECT * FROM identities WHERE provider = \(bind: provider) AND provider_id = \(bind: account.id)
                \(unsafeRaw: driver.flavor.forUpdate)
                """
            ).first().map(Self.identity(from:))
            if let existing {
                if let user = try await Self.fetchUser(id: existing.userID, on: db) {
                    try await db.raw(
                        """
                        UPDATE identities SET identity_data = \(bind: identityData), updated_at = \(bind: now.stored),
                        last_sign_in_at = \(bind: now.stored) WHERE id = \(bind: existing.id)
                        """
                    ).run()
                    return user
                }
                // A link that outlived its user (deleted by an older server): drop it and start over.
                try await db.raw("DELETE FROM identities WHERE id = \(bind: existing.id)").run()
            }
            var email = account.emailVerified ? account.email : nil
            if let candidate = email,
                try await db.raw("SELECT id FROM users WHERE email = \(bind: candidate)").first() != nil
            {
                email = nil
            }
            let userID = UUID().uuidString.lowercased()
            try await db.raw(
                """
                INSERT INTO users (id, email, password_hash, user_metadata, created_at, updated_at, email_confirmed_at)
                VALUES (\(bind: userID), \(bind: email), '', \(bind: metadata), \(bind: now.stored), \(bind: now.stored),
                \(bind: email == nil ? nil : now.stored))
                """
            ).run()
            // ON CONFLICT: a concurrent callback for the same new account loses
            // cleanly (this transaction rolls back) instead of linking twice.
            let inserted = try await db.raw(
                """
                INSERT INTO identities (id, user_id, provider, provider_id, identity_data, email, created_at, updated_at,
                last_sign_in_at) VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: userID), \(bind: provider),
                \(bind: account.id), \(bind: identityData), \(bind: account.email), \(bind: now.stored),
                \(bind: now.stored), \(bind: now.stored))
                ON CONFLICT (provider, provider_id) DO NOTHING RETURNING id
                """
            ).first()
            guard inserted != nil else { throw IdentityRace() }
            guard let user = try await Self.fetchUser(id: userID, on: db) else { throw AuthError.internalFailure }
            return user
        }
    }

    /// Two callbacks created the same identity at once; the loser retries and finds it.
    struct IdentityRace: Error {}
}
