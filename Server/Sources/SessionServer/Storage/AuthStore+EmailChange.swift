import Foundation
import SQLKit
import SessionCore

/// A pending email change and its codes (docs/ACCOUNTS.md, "Becoming
/// permanent" and "A confirmed email change (server)").
///
/// The user row names the address waiting (`email_change`); each address the
/// change mailed has one row in `email_change_codes`: `current` (the address
/// the account holds, for GoTrue's secure change) and `new`. A row is deleted
/// when it is redeemed; the change happens when the last row goes. Codes and
/// link tokens are stored as the other email codes are (AuthStore+OneTimeTokens.swift):
/// SHA-256 only, the code's hash salted with its row's id.
extension AuthStore {
    /// Which address a code of an email change went to.
    enum EmailChangeSide: String, Sendable {
        case current, new
    }

    /// One code and link of a change, as issued (the plaintext code only to hash it).
    struct EmailChangeCodeIssue: Sendable {
        var side: EmailChangeSide
        var email: String
        var code: String
        var linkHash: String
    }

    /// Where the change's last confirmation leaves the person signed in.
    enum EmailChangeSessionPlan: Sendable {
        /// The session of the bearer the verify request carried, if it is this
        /// user's and live: its refresh token swapped (the same-session contract).
        case sameSessionIfLive(userID: String, sessionID: String)
        /// A new session, as GoTrue's verify issues.
        case newSession
        /// None: a link confirmed in a browser with no app to return to has nowhere to take one.
        case noSession
    }

    /// What redeeming a code decided. A refusal is returned, not thrown, so
    /// what the transaction wrote (a wrong guess counted, an expired row
    /// deleted) still commits.
    enum EmailChangeRedemption: Sendable {
        /// One of two codes confirmed; the other address's is still to come.
        case firstConfirmed
        /// The address changed: the user as it is now and the session to answer with.
        case changed(user: UserRecord, session: SessionRecord, refreshToken: String, sameSession: Bool)
        /// The address changed and no session was asked for (``EmailChangeSessionPlan/noSession``).
        case changedWithoutSession(user: UserRecord)
        case refused(AuthError)
    }

    /// What a redeem brings besides the lookup.
    struct EmailChangeRedeemContext: Sendable {
        var plan: EmailChangeSessionPlan
        var origin: SessionService.Origin
        var now: Date
        var maximumAttempts: Int
        var refreshTokenTTL: TimeInterval
        var absoluteTTL: TimeInterval
        var kek: KeyEncryptionKey
    }

    /// Starts, or starts again, `userID`'s change to `newEmail`: the address is
    /// written as pending and `codes` replace any the user had, in one transaction.
    ///
    /// - Throws: ``AuthError/emailExists`` when another account holds the
    ///   address; ``AuthError/sessionRevoked`` when the user is gone.
    func startEmailChange(
        userID: String, newEmail: String, codes: [EmailChangeCodeIssue], now: Date, lifetime: TimeInterval, ip: String?
    ) async throws -> UserRecord {
        let forUpdate = driver.flavor.forUpdate
        return try await changingUsers { db in
            guard try await db.raw("SELECT id FROM users WHERE id = \(bind: userID)\(unsafeRaw: forUpdate)").first() != nil
            else { throw AuthError.sessionRevoked }
            if try await Self.addressHeld(newEmail, byOtherThan: userID, on: db) { throw AuthError.emailExists }
            try await db.raw("DELETE FROM email_change_codes WHERE user_id = \(bind: userID)").run()
            for code in codes {
                let id = UUID().uuidString.lowercased()
                try await db.raw(
                    """
                    INSERT INTO email_change_codes (id, user_id, side, email, code_hash, link_hash, created_at,
                    expires_at, attempts) VALUES (\(bind: id), \(bind: userID), \(bind: code.side.rawValue),
                    \(bind: code.email), \(bind: Self.codeHash(id: id, code: code.code)), \(bind: code.linkHash),
                    \(bind: now.stored), \(bind: now.addingTimeInterval(lifetime).stored), 0)
                    """
                ).run()
            }
            try await db.raw(
                """
                UPDATE users SET email_change = \(bind: newEmail), email_change_sent_at = \(bind: now.stored)
                WHERE id = \(bind: userID)
                """
            ).run()
            try await Self.insertAudit(
                actor: userID, action: "email_change_requested", target: userID, ip: ip,
                details: ["sides": .number(Double(codes.count))], now: now, on: db)
            guard let user = try await Self.fetchUser(id: userID, on: db) else { throw AuthError.sessionRevoked }
            return user
        }
    }

    /// Whether an account other than `userID` holds `email` (checked again when the change is written).
    func isAddressHeld(_ email: String, byOtherThan userID: String) async throws -> Bool {
        try await driver.read { db in try await Self.addressHeld(email, byOtherThan: userID, on: db) }
    }

    /// Whether an account other than `userID` holds `email`, as its address or
    /// a linked identity's (GoTrue's `IsDuplicatedEmail`).
    static func addressHeld(_ email: String, byOtherThan userID: String, on db: any SQLDatabase) async throws -> Bool {
        if try await db.raw("SELECT id FROM users WHERE email = \(bind: email) AND id <> \(bind: userID)").first() != nil {
            return true
        }
        return try await db.raw(
            "SELECT id FROM identities WHERE LOWER(email) = \(bind: email) AND user_id <> \(bind: userID)"
        ).first() != nil
    }

    /// Redeems one code or link of a change in one transaction: checks it,
    /// consumes it, and when it was the last one changes the address and
    /// issues or swaps the session (``EmailChangeSessionPlan``).
    func redeemEmailChange(_ lookup: OneTimeTokenLookup, _ context: EmailChangeRedeemContext) async throws
        -> EmailChangeRedemption
    {
        let forUpdate = driver.flavor.forUpdate
        return try await changingUsers { db in
            let query: SQLQueryString =
                switch lookup {
                case .code(let email, _):
                    "SELECT * FROM email_change_codes WHERE email = \(bind: email) ORDER BY id\(unsafeRaw: forUpdate)"
                case .link(let hash):
                    "SELECT * FROM email_change_codes WHERE link_hash = \(bind: hash)\(unsafeRaw: forUpdate)"
                }
            var live: [any SQLRow] = []
            for row in try await db.raw(query).all() {
                guard try row.date("expires_at") > context.now else {
                    // Expired: deleted, as an expired sign-in code is.
                    try await db.raw("DELETE FROM email_change_codes WHERE id = \(bind: try row.string("id"))").run()
                    continue
                }
                live.append(row)
            }
            guard !live.isEmpty else { return .refused(.emailCodeInvalid) }
            let matched: any SQLRow
            if case .code(_, let code) = lookup {
                let matching = try live.filter {
                    SHA256Hex.constantTimeEquals(Self.codeHash(id: try $0.string("id"), code: code), try $0.string("code_hash"))
                }
                guard !matching.isEmpty else {
                    // A wrong guess counts against every code it could have been.
                    for row in live { try await Self.countWrongChangeGuess(row, maximumAttempts: context.maximumAttempts, on: db) }
                    return .refused(.emailCodeInvalid)
                }
                // Two users' changes to one address whose codes collide (one in a million): the bearer's own first.
                var preferred: String? = nil
                if case .sameSessionIfLive(let userID, _) = context.plan { preferred = userID }
                matched = try matching.first { try $0.string("user_id") == preferred } ?? matching[0]
            } else {
                matched = live[0]
            }
            return try await Self.consume(matched, context, forUpdate: forUpdate, on: db)
        }
    }

    private static func consume(
        _ row: any SQLRow, _ context: EmailChangeRedeemContext, forUpdate: String, on db: any SQLDatabase
    ) async throws -> EmailChangeRedemption {
        let userID = try row.string("user_id")
        let now = context.now
        // The user row first, as every writer takes it.
        guard
            let locked = try await db.raw("SELECT * FROM users WHERE id = \(bind: userID)\(unsafeRaw: forUpdate)").first()
                .map(Self.user(from:)),
            let newEmail = locked.pendingEmail
        else {
            // No change pending any more (the user is gone): the code is void.
            try await db.raw("DELETE FROM email_change_codes WHERE user_id = \(bind: userID)").run()
            return .refused(.emailCodeInvalid)
        }
        // GoTrue refuses a banned user's codes (`verifyUserAndToken`); the code stays for after the ban.
        if locked.isBanned(at: now) { return .refused(.userBanned) }
        try await db.raw("DELETE FROM email_change_codes WHERE id = \(bind: try row.string("id"))").run()
        let remaining = try await db.raw("SELECT id FROM email_change_codes WHERE user_id = \(bind: userID)").first()
        if remaining != nil {
            // GoTrue's secure change: one address confirmed, the other still to come.
            try await insertAudit(
                actor: userID, action: "email_change_confirmed_one", target: userID, ip: context.origin.ip,
                details: ["side": .string(try row.string("side"))], now: now, on: db)
            return .firstConfirmed
        }
        // Taken meanwhile (a sign-up, another change): refused, and never merged into that account.
        if try await addressHeld(newEmail, byOtherThan: userID, on: db) {
            try await db.raw(
                "UPDATE users SET email_change = NULL, email_change_sent_at = NULL WHERE id = \(bind: userID)"
            ).run()
            return .refused(.emailExists)
        }
        try await db.raw(
            """
            UPDATE users SET email = \(bind: newEmail), email_confirmed_at = \(bind: now.stored), is_anonymous = 0,
            email_change = NULL, email_change_sent_at = NULL, updated_at = \(bind: now.stored) WHERE id = \(bind: userID)
            """
        ).run()
        if let old = locked.email {
            // Codes mailed to the old address no longer reach this account's owner.
            try await db.raw("DELETE FROM one_time_tokens WHERE email = \(bind: old)").run()
        }
        try await insertAudit(
            actor: userID, action: "email_changed", target: userID, ip: context.origin.ip,
            details: ["was_anonymous": .bool(locked.isAnonymous)], now: now, on: db)
        return try await finish(userID: userID, context, forUpdate: forUpdate, on: db)
    }

    /// The session the last confirmation answers with (docs/ACCOUNTS.md, "The same-session contract").
    private static func finish(
        userID: String, _ context: EmailChangeRedeemContext, forUpdate: String, on db: any SQLDatabase
    ) async throws -> EmailChangeRedemption {
        let now = context.now
        if case .sameSessionIfLive(let bearerUser, let sessionID) = context.plan, bearerUser == userID,
            var session = try await db.raw(
                """
                SELECT * FROM sessions WHERE id = \(bind: sessionID) AND user_id = \(bind: userID)
                AND revoked_at IS NULL AND not_after > \(bind: now.stored)\(unsafeRaw: forUpdate)
                """
            ).first().map(Self.session(from:))
        {
            // The bearer's own live session: its refresh token swapped, its id and family kept.
            let token = try await swapRefreshToken(
                of: &session, refreshTokenTTL: context.refreshTokenTTL, kek: context.kek, now: now, on: db)
            guard let user = try await fetchUser(id: userID, on: db) else { return .refused(.emailCodeInvalid) }
            return .changed(user: user, session: session, refreshToken: token, sameSession: true)
        }
        if case .noSession = context.plan {
            guard let user = try await fetchUser(id: userID, on: db) else { return .refused(.emailCodeInvalid) }
            return .changedWithoutSession(user: user)
        }
        // No bearer, another user's, or an ended session: a new session, as GoTrue's verify issues (amr `otp`).
        let (session, token) = try await insertSession(
            userID: userID, userAgent: context.origin.userAgent, ip: context.origin.ip, now: now,
            refreshTokenTTL: context.refreshTokenTTL, absoluteTTL: context.absoluteTTL, method: "otp", on: db)
        guard let user = try await fetchUser(id: userID, on: db) else { return .refused(.emailCodeInvalid) }
        return .changed(user: user, session: session, refreshToken: token, sameSession: false)
    }

    /// One more wrong guess at `row`; at `maximumAttempts` the row is gone,
    /// and with it the change (a new one must be asked for).
    private static func countWrongChangeGuess(_ row: any SQLRow, maximumAttempts: Int, on db: any SQLDatabase) async throws {
        let id = try row.string("id")
        let attempts = try row.decode(column: "attempts", as: Int.self) + 1
        try await db.raw(
            attempts >= maximumAttempts
                ? "DELETE FROM email_change_codes WHERE id = \(bind: id)"
                : "UPDATE email_change_codes SET attempts = \(bind: attempts) WHERE id = \(bind: id)"
        ).run()
    }

    /// The user whose pending change `/resend` may mail again for `email`: the
    /// account holding `email` (GoTrue's lookup), or the bearer's own account
    /// when `email` is its pending address (an anonymous user has no other).
    func userForEmailChangeResend(email: String, bearerUserID: String?) async throws -> UserRecord? {
        try await driver.read { db in
            if let bearerUserID, let user = try await Self.fetchUser(id: bearerUserID, on: db),
                user.pendingEmail != nil, user.email == email || user.pendingEmail == email
            {
                return user
            }
            guard let row = try await db.raw("SELECT id FROM users WHERE email = \(bind: email)").first() else { return nil }
            guard let user = try await Self.fetchUser(id: try row.string("id"), on: db), user.pendingEmail != nil else {
                return nil
            }
            return user
        }
    }

    /// Deletes change codes past their expiry (the pruning pass).
    static func pruneEmailChangeCodes(before now: Date, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM email_change_codes WHERE expires_at <= \(bind: now.stored)").run()
    }
}
