import Foundation
import SQLKit

/// OAuth flow states: created at `/authorize`, their `state` used once at
/// `/callback`, their one-time code exchanged once at `grant_type=pkce`.
/// The state and the code are stored only as SHA-256 hashes.
extension AuthStore {
    /// What the callback found for a `state`.
    enum StateLookup: Sendable {
        case valid(OAuthFlowRecord)
        case alreadyUsed(OAuthFlowRecord)
        case expired(OAuthFlowRecord)
        case notFound
    }

    static func flow(from row: any SQLRow) throws -> OAuthFlowRecord {
        OAuthFlowRecord(
            id: try row.string("id"), provider: try row.string("provider"), redirectTo: try row.string("redirect_to"),
            codeChallenge: try row.string("code_challenge"),
            codeChallengeMethod: try row.string("code_challenge_method"), createdAt: try row.date("created_at"),
            stateExpiresAt: try row.date("state_expires_at"), stateUsedAt: try row.optionalDate("state_used_at"),
            userID: try row.optionalString("user_id"), authCodeExpiresAt: try row.optionalDate("auth_code_expires_at"),
            authCodeUsedAt: try row.optionalDate("auth_code_used_at"),
            linkingUserID: try row.optionalString("linking_user_id"),
            linkingSessionID: try row.optionalString("linking_session_id"))
    }

    /// Who started a link flow: the user it links to and the session its code answers for.
    struct LinkTarget: Sendable, Hashable {
        var userID: String
        var sessionID: String
    }

    /// Records a new flow; `linking` makes it a link flow (docs/ACCOUNTS.md, "Linked identities (server)").
    func createOAuthFlow(
        stateHash: String, provider: String, redirectTo: String, codeChallenge: String, method: String, now: Date,
        lifetime: TimeInterval, linking: LinkTarget? = nil
    ) async throws {
        try await driver.transaction { db in
            try await db.raw(
                """
                INSERT INTO oauth_flows (id, state_hash, provider, redirect_to, code_challenge, code_challenge_method,
                created_at, state_expires_at, linking_user_id, linking_session_id)
                VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: stateHash),
                \(bind: provider), \(bind: redirectTo), \(bind: codeChallenge), \(bind: method), \(bind: now.stored),
                \(bind: now.addingTimeInterval(lifetime).stored), \(bind: linking?.userID), \(bind: linking?.sessionID))
                """
            ).run()
        }
    }

    /// Finds the flow of a `state` and marks the state used, in one transaction,
    /// so two callbacks with one state cannot both proceed.
    func useOAuthState(hash: String, now: Date) async throws -> StateLookup {
        try await driver.transaction { db in
            guard
                let flow = try await db.raw(
                    "SELECT * FROM oauth_flows WHERE state_hash = \(bind: hash)\(unsafeRaw: driver.flavor.forUpdate)"
                ).first().map(Self.flow(from:))
            else { return .notFound }
            if flow.stateUsedAt != nil { return .alreadyUsed(flow) }
            try await db.raw("UPDATE oauth_flows SET state_used_at = \(bind: now.stored) WHERE id = \(bind: flow.id)").run()
            return flow.stateExpiresAt <= now ? .expired(flow) : .valid(flow)
        }
    }

    /// Binds the flow to the signed-in user and its one-time code.
    func issueOAuthCode(flowID: String, userID: String, codeHash: String, expiresAt: Date) async throws {
        try await driver.transaction { db in
            try await db.raw(
                """
                UPDATE oauth_flows SET user_id = \(bind: userID), auth_code_hash = \(bind: codeHash),
                auth_code_expires_at = \(bind: expiresAt.stored) WHERE id = \(bind: flowID)
                """
            ).run()
        }
    }

    /// What a redeemed code gives: the user and their new session.
    struct RedeemedCode: Sendable {
        var user: UserRecord
        var session: SessionRecord
        var refreshToken: String
    }

    /// Redeems a one-time code: checks expiry and the PKCE verifier, marks it
    /// used and starts the session, in one transaction — a failure anywhere
    /// leaves the code usable, so a server fault never costs the person their sign-in.
    ///
    /// A link flow's code starts no session: it answers for the session that
    /// started the link, its refresh token swapped in place
    /// (``swapRefreshToken(of:refreshTokenTTL:kek:now:on:)``), and is refused
    /// once that session has ended (docs/ACCOUNTS.md, "Linked identities (server)").
    ///
    /// - Parameter verify: checks the verifier against the flow's challenge.
    /// - Parameter linkSwap: seals a link flow's swapped token; `nil` where only
    ///   sign-in codes may be redeemed (the account page): a link code is then unknown.
    /// - Throws: ``AuthError/flowStateNotFound`` (unknown or used code, or its user is gone),
    ///   ``AuthError/flowStateExpired``, ``AuthError/badCodeVerifier`` (the code stays usable:
    ///   a wrong verifier proves nothing about the rightful holder).
    func redeemOAuthCode(
        hash: String, now: Date, session: SessionService.Origin, refreshTokenTTL: TimeInterval,
        absoluteTTL: TimeInterval, linkSwap: KeyEncryptionKey? = nil,
        verify: @escaping @Sendable (OAuthFlowRecord) -> Bool
    ) async throws -> RedeemedCode {
        try await changingUsers { db in
            guard
                let flow = try await db.raw(
                    "SELECT * FROM oauth_flows WHERE auth_code_hash = \(bind: hash)\(unsafeRaw: driver.flavor.forUpdate)"
                ).first().map(Self.flow(from:)),
                flow.authCodeUsedAt == nil, let userID = flow.userID, let expiresAt = flow.authCodeExpiresAt
            else { throw AuthError.flowStateNotFound }
            if flow.isLink, linkSwap == nil { throw AuthError.flowStateNotFound }
            guard expiresAt > now else { throw AuthError.flowStateExpired }
            guard verify(flow) else { throw AuthError.badCodeVerifier }
            guard var user = try await Self.fetchUser(id: userID, on: db) else { throw AuthError.flowStateNotFound }
            try await db.raw("UPDATE oauth_flows SET auth_code_used_at = \(bind: now.stored) WHERE id = \(bind: flow.id)").run()
            if let sessionID = flow.linkingSessionID, let kek = linkSwap {
                // A link: the same session, never a second one (docs/ACCOUNTS.md, "Linked identities (server)").
                guard
                    var session = try await db.raw(
                        """
                        SELECT * FROM sessions WHERE id = \(bind: sessionID) AND user_id = \(bind: userID)
                        AND revoked_at IS NULL\(unsafeRaw: driver.flavor.forUpdate)
                        """
                    ).first().map(Self.session(from:)),
                    now < session.notAfter
                else { throw AuthError.linkingSessionEnded }
                if user.isBanned(at: now) { throw AuthError.userBanned }
                let token = try await Self.swapRefreshToken(
                    of: &session, refreshTokenTTL: refreshTokenTTL, kek: kek, now: now, on: db)
                return RedeemedCode(user: user, session: session, refreshToken: token)
            }
            let (record, token) = try await Self.insertSession(
                userID: userID, userAgent: session.userAgent, ip: session.ip, now: now,
                refreshTokenTTL: refreshTokenTTL, absoluteTTL: absoluteTTL, method: "oauth", on: db)
            user.lastSignInAt = now
            return RedeemedCode(user: user, session: record, refreshToken: token)
        }
    }
}
