import Foundation
import SQLKit
import SessionCore

/// Identity linking and unlinking (GoTrue's `linkIdentityToUser` and
/// `DeleteIdentity`, `internal/api/identity.go`; docs/ACCOUNTS.md, "Linked identities (server)").
extension AuthStore {
    /// What a link needs besides the provider account, checked in the linking transaction.
    struct LinkRequest: Sendable {
        var provider: String
        var account: ProviderAccount
        /// The signed-in user and session the link was started from.
        var target: LinkTarget
        var ip: String?
        /// Set for a link answered at once (`grant_type=id_token`): the target
        /// session's refresh token is swapped in the same transaction.
        var swap: (refreshTokenTTL: TimeInterval, kek: KeyEncryptionKey)?
    }

    /// The user after a link, and the swapped session when one was asked for.
    struct LinkResult: Sendable {
        var user: UserRecord
        var session: SessionRecord
        var refreshToken: String?
    }

    /// Links `request.account` to the target user, in one transaction.
    ///
    /// The target session must still be live: a session signed out (or ended as
    /// stolen) between the start of a link and its callback links nothing.
    /// The account's address becomes the user's only when the user has none,
    /// the provider verified it and no other account holds it: linking never
    /// merges or claims an account by email (docs/OAUTH.md's rule for sign-in).
    /// An anonymous user becomes permanent: the identity is a way back in.
    ///
    /// - Throws: ``AuthError/identityAlreadyLinked``, ``AuthError/identityLinkedToAnotherUser``,
    ///   ``AuthError/linkingTargetNotFound``, ``AuthError/linkingSessionEnded``, ``AuthError/userBanned``.
    func linkIdentity(_ request: LinkRequest, now: Date) async throws -> LinkResult {
        let identityData = try Self.encodeMetadata(request.account.profile)
        let flavor = driver.flavor
        let userID = request.target.userID
        return try await changingUsers { db in
            guard
                let user = try await db.raw("SELECT * FROM users WHERE id = \(bind: userID)\(unsafeRaw: flavor.forUpdate)")
                    .first().map(Self.user(from:))
            else { throw AuthError.linkingTargetNotFound }
            guard
                var session = try await db.raw(
                    """
                    SELECT * FROM sessions WHERE id = \(bind: request.target.sessionID) AND user_id = \(bind: userID)
                    AND revoked_at IS NULL\(unsafeRaw: flavor.forUpdate)
                    """
                ).first().map(Self.session(from:)),
                now < session.notAfter
            else { throw AuthError.linkingSessionEnded }
            if user.isBanned(at: now) { throw AuthError.userBanned }
            if let owner = try await db.raw(
                """
                SELECT user_id FROM identities WHERE provider = \(bind: request.provider)
                AND provider_id = \(bind: request.account.id)
                """
            ).first() {
                let ownerID = try owner.string("user_id")
                throw ownerID == userID ? AuthError.identityAlreadyLinked : AuthError.identityLinkedToAnotherUser
            }
            let identityID = UUID().uuidString.lowercased()
            let inserted = try await db.raw(
                """
                INSERT INTO identities (id, user_id, provider, provider_id, identity_data, email, created_at, updated_at,
                last_sign_in_at) VALUES (\(bind: identityID), \(bind: userID), \(bind: request.provider),
                \(bind: request.account.id), \(bind: identityData), \(bind: request.account.email), \(bind: now.stored),
                \(bind: now.stored), \(bind: now.stored))
                ON CONFLICT (provider, provider_id) DO NOTHING RETURNING id
                """
            ).first()
            // Another transaction linked the same account a moment ago (to whomever): refused as above.
            guard inserted != nil else { throw AuthError.identityLinkedToAnotherUser }
            try await Self.adoptAddress(of: request.account, user: user, now: now, on: db)
            // GoTrue clears `is_anonymous` on a link that brings a verified address; here any
            // identity does, since the identity alone signs the person back in (docs/ACCOUNTS.md).
            try await db.raw(
                "UPDATE users SET is_anonymous = 0, updated_at = \(bind: now.stored) WHERE id = \(bind: userID)"
            ).run()
            try await Self.insertAudit(
                actor: userID, action: "identity_linked", target: identityID, ip: request.ip,
                details: [
                    "provider": .string(request.provider), "was_anonymous": .bool(user.isAnonymous),
                    "session_id": .string(session.id),
                ],
                now: now, on: db)
            var refreshToken: String?
            if let swap = request.swap {
                refreshToken = try await Self.swapRefreshToken(
                    of: &session, refreshTokenTTL: swap.refreshTokenTTL, kek: swap.kek, now: now, on: db)
            }
            guard let linked = try await Self.fetchUser(id: userID, on: db) else { throw AuthError.internalFailure }
            return LinkResult(user: linked, session: session, refreshToken: refreshToken)
        }
    }

    /// Gives a user without an address the provider's, when the provider
    /// verified it and no account holds it; otherwise the address stays only
    /// in the identity, as what the provider said.
    private static func adoptAddress(
        of account: ProviderAccount, user: UserRecord, now: Date, on db: any SQLDatabase
    ) async throws {
        guard user.email == nil, account.emailVerified, let email = account.email?.lowercased(),
            try await db.raw("SELECT id FROM users WHERE email = \(bind: email)").first() == nil
        else { return }
        try await db.raw(
            """
            UPDATE users SET email = \(bind: email), email_confirmed_at = \(bind: now.stored) WHERE id = \(bind: user.id)
            """
        ).run()
    }

    /// Unlinks identity `identityID` (its `identity_id`) from `userID`, in one transaction.
    ///
    /// Counted as GoTrue counts (`len(user.Identities) <= 1`), over the
    /// identities the user's JSON lists (the `email` one stands for an address
    /// with a password): the last way to sign in is never removed. Another
    /// user's identity is not found, as a missing one.
    ///
    /// - Throws: ``AuthError/singleIdentityNotDeletable``, ``AuthError/identityNotFound``,
    ///   ``AuthError/emailIdentityNotUnlinkable``, ``AuthError/sessionRevoked`` when the user is gone.
    func unlinkIdentity(_ identityID: String, userID: String, ip: String?, now: Date) async throws -> UserRecord {
        let flavor = driver.flavor
        return try await changingUsers { db in
            guard
                var user = try await db.raw("SELECT * FROM users WHERE id = \(bind: userID)\(unsafeRaw: flavor.forUpdate)")
                    .first().map(Self.user(from:))
            else { throw AuthError.sessionRevoked }
            user.identities = try await Self.fetchIdentities(userID: userID, on: db)
            let listed = user.sessionUser.identities ?? []
            guard listed.count > 1 else { throw AuthError.singleIdentityNotDeletable }
            guard let identity = user.identities.first(where: { $0.id == identityID }) else {
                // The `email` identity is the user's own id on the wire.
                throw listed.contains { $0.identityId == identityID } ? AuthError.emailIdentityNotUnlinkable : AuthError.identityNotFound
            }
            try await db.raw("DELETE FROM identities WHERE id = \(bind: identity.id) AND user_id = \(bind: userID)").run()
            try await db.raw("UPDATE users SET updated_at = \(bind: now.stored) WHERE id = \(bind: userID)").run()
            try await Self.insertAudit(
                actor: userID, action: "identity_unlinked", target: identity.id, ip: ip,
                details: ["provider": .string(identity.provider)], now: now, on: db)
            guard let unlinked = try await Self.fetchUser(id: userID, on: db) else { throw AuthError.internalFailure }
            return unlinked
        }
    }
}
