import Foundation
import SQLKit
import SessionCore

/// Email codes and links: issued by `/otp` and `/recover`, redeemed once by
/// `/verify` (docs/DESIGN.md, "Email codes and links").
///
/// One row per address and purpose: a new code replaces the last one. The
/// six-digit code and the link token are stored only as SHA-256; the code's
/// hash is salted with the row's id, so one precomputed table of a million
/// hashes does not read every row.
extension AuthStore {
    /// What was presented to `/verify`.
    enum OneTimeTokenLookup: Sendable {
        /// The address and the six digits typed from the email.
        case code(email: String, code: String)
        /// The SHA-256 of the link's token (`token_hash`).
        case link(hash: String)
    }

    /// What the email's code and link are for.
    enum OneTimeTokenPurpose: String, Sendable {
        /// Sign in (and create the account, when asked to).
        case signIn = "sign_in"
        /// Sign in to set a new password.
        case recovery
        /// Confirm the address of a password sign-up (and sign in): the one
        /// code that keeps the password, since whoever set it proved the mailbox.
        case signUp = "signup"
        /// Prove presence before a sensitive change (`/reauthenticate`'s
        /// nonce): never redeemed by `/verify`, never a session.
        case reauthentication
    }

    /// The stored hash of `code` for the row `id`.
    static func codeHash(id: String, code: String) -> String { SHA256Hex.of(id + ":" + code) }

    /// Stores a new code and link for `email`, replacing any still outstanding.
    ///
    /// - Parameter id: the new row's id, which salts the code's hash.
    func issueOneTimeToken(
        id: String, purpose: OneTimeTokenPurpose, email: String, code: String, linkHash: String, createUser: Bool,
        metadata: [String: JSONValue], now: Date, lifetime: TimeInterval
    ) async throws {
        let metadataText = try Self.encodeMetadata(metadata)
        try await driver.transaction { db in
            if purpose == .signIn || purpose == .recovery {
                // Issue 37, item 1: a sign-up's confirmation code keeps the password it came
                // with; once anyone asks for another code for the address, whoever signed it
                // up first (perhaps an attacker, with the mail in the owner's inbox) gets no
                // such confirmation. A confirmed address has no sign-up code: nothing to void.
                try await db.raw(
                    "DELETE FROM one_time_tokens WHERE email = \(bind: email) AND purpose = \(bind: OneTimeTokenPurpose.signUp.rawValue)"
                ).run()
            }
            // An upsert, not delete-then-insert: two requests at once for one
            // address leave exactly one row on both databases.
            try await db.raw(
                """
                INSERT INTO one_time_tokens (id, purpose, email, code_hash, link_hash, create_user, user_metadata,
                created_at, expires_at, attempts) VALUES (\(bind: id), \(bind: purpose.rawValue), \(bind: email),
                \(bind: Self.codeHash(id: id, code: code)), \(bind: linkHash), \(bind: createUser ? 1 : 0),
                \(bind: metadataText), \(bind: now.stored), \(bind: now.addingTimeInterval(lifetime).stored), 0)
                ON CONFLICT (email, purpose) DO UPDATE SET id = excluded.id, code_hash = excluded.code_hash,
                link_hash = excluded.link_hash, create_user = excluded.create_user,
                user_metadata = excluded.user_metadata, created_at = excluded.created_at,
                expires_at = excluded.expires_at, attempts = 0
                """
            ).run()
        }
    }

    /// Redeems a code or link: checks it, consumes it and starts a session, in
    /// one transaction, so a code signs in at most once and a fault anywhere
    /// leaves it usable.
    ///
    /// A wrong code counts against the row; after `maximumAttempts` the row
    /// is gone and a new code must be requested. An expired row is deleted.
    ///
    /// - Returns: `nil` for every refusal (unknown, wrong, expired, used, or no
    ///   account to sign in to), which the caller answers alike.
    ///
    /// - Parameter purposes: the rows this `/verify` type may redeem (a sign-in
    ///   code and a sign-up's confirmation code both answer `type=email`).
    func redeemOneTimeToken(
        _ lookup: OneTimeTokenLookup, purposes: [OneTimeTokenPurpose], now: Date, origin: SessionService.Origin,
        refreshTokenTTL: TimeInterval, absoluteTTL: TimeInterval, maximumAttempts: Int
    ) async throws -> RedeemedCode? {
        let forUpdate = driver.flavor.forUpdate
        let names = purposes.map(\.rawValue)
        // Sessions may have ended (an unproven password cleared): no cached check may outlive that.
        return try await revokingSessions(changingUsers: true) { db in
            let query: SQLQueryString =
                switch lookup {
                case .code(let email, _):
                    "SELECT * FROM one_time_tokens WHERE email = \(bind: email) ORDER BY id\(unsafeRaw: forUpdate)"
                case .link(let hash):
                    "SELECT * FROM one_time_tokens WHERE link_hash = \(bind: hash)\(unsafeRaw: forUpdate)"
                }
            // A recovery link presented as a sign-in (or the reverse) is refused and left alone.
            let rows = try await db.raw(query).all().filter { names.contains(try $0.string("purpose")) }
            guard !rows.isEmpty else { return nil }
            var live: [any SQLRow] = []
            for row in rows {
                guard try row.date("expires_at") > now else {
                    try await db.raw("DELETE FROM one_time_tokens WHERE id = \(bind: try row.string("id"))").run()
                    continue
                }
                live.append(row)
            }
            let matched: (any SQLRow)?
            if case .code(_, let code) = lookup {
                matched = try live.first {
                    SHA256Hex.constantTimeEquals(Self.codeHash(id: try $0.string("id"), code: code), try $0.string("code_hash"))
                }
                guard matched != nil else {
                    // A wrong guess counts against every code it could have been.
                    for row in live { try await Self.countWrongGuess(row, maximumAttempts: maximumAttempts, on: db) }
                    return nil
                }
            } else {
                matched = live.first
            }
            guard let row = matched else { return nil }
            let id = try row.string("id")
            let email = try row.string("email")
            // A nonce is spent only by the change it proves (AuthStore+Reauthentication.swift).
            guard let purpose = OneTimeTokenPurpose(rawValue: try row.string("purpose")), purpose != .reauthentication
            else { return nil }
            try await db.raw("DELETE FROM one_time_tokens WHERE id = \(bind: id)").run()
            guard
                let userID = try await Self.userForCode(
                    email: email, create: purpose == .signIn && (try row.decode(column: "create_user", as: Int.self)) == 1,
                    metadata: try row.string("user_metadata"), now: now, on: db)
            else { return nil }
            if purpose != .signUp {
                try await Self.forgetUnprovenSignUp(userID: userID, now: now, on: db)
            }
            // The code proves the mailbox: the address is confirmed from now on.
            try await db.raw(
                """
                UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, \(bind: now.stored))
                WHERE id = \(bind: userID)
                """
            ).run()
            let method = switch purpose {
            case .recovery: "recovery"
            case .signIn: "otp"
            case .signUp: "email/signup"
            case .reauthentication: "reauthentication"  // refused above; named for completeness
            }
            let (session, token) = try await Self.insertSession(
                userID: userID, userAgent: origin.userAgent, ip: origin.ip, now: now, refreshTokenTTL: refreshTokenTTL,
                absoluteTTL: absoluteTTL, method: method, on: db)
            guard var user = try await Self.fetchUser(id: userID, on: db) else { return nil }
            user.lastSignInAt = now
            return RedeemedCode(user: user, session: session, refreshToken: token)
        }
    }

    /// One more wrong guess at `row`; at `maximumAttempts` the row is gone.
    static func countWrongGuess(_ row: any SQLRow, maximumAttempts: Int, on db: any SQLDatabase) async throws {
        let id = try row.string("id")
        let attempts = try row.decode(column: "attempts", as: Int.self) + 1
        try await db.raw(
            attempts >= maximumAttempts
                ? "DELETE FROM one_time_tokens WHERE id = \(bind: id)"
                : "UPDATE one_time_tokens SET attempts = \(bind: attempts) WHERE id = \(bind: id)"
        ).run()
    }

    /// The pre-hijacking defence (docs/DESIGN.md, "Confirming a sign-up's
    /// address"): a mailbox proving itself on an address that was never
    /// confirmed meets a password nobody proved, set by whoever signed the
    /// address up. The password and the `user_metadata` that came with it are
    /// cleared and every session of the account ends, so nothing that person
    /// set up survives (issue 37, item 1).
    static func forgetUnprovenSignUp(userID: String, now: Date, on db: any SQLDatabase) async throws {
        let unproven = try await db.raw(
            """
            SELECT id FROM users WHERE id = \(bind: userID) AND email_confirmed_at IS NULL AND password_hash <> ''
            """
        ).first()
        guard unproven != nil else { return }
        try await db.raw(
            """
            UPDATE users SET password_hash = '', user_metadata = '{}', updated_at = \(bind: now.stored)
            WHERE id = \(bind: userID)
            """
        ).run()
        try await db.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: now.stored), revoked_reason = 'unconfirmed_password_cleared'
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL
            """
        ).run()
        try await insertAudit(
            actor: userID, action: "unconfirmed_password_cleared", target: userID, ip: nil, details: [:], now: now, on: db)
    }

    /// The account of `email`, created (without a password, metadata from the
    /// request that sent the code) when `create` says so and there is none.
    private static func userForCode(
        email: String, create: Bool, metadata: String, now: Date, on db: any SQLDatabase
    ) async throws -> String? {
        let select: SQLQueryString = "SELECT id FROM users WHERE email = \(bind: email)"
        if let row = try await db.raw(select).first() { return try row.string("id") }
        guard create else { return nil }
        // ON CONFLICT: a sign-up or another code for the address may have
        // created the user meanwhile; then this code signs in to that one.
        try await db.raw(
            """
            INSERT INTO users (id, email, password_hash, user_metadata, created_at, updated_at)
            VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: email), '', \(bind: metadata),
            \(bind: now.stored), \(bind: now.stored)) ON CONFLICT (email) DO NOTHING
            """
        ).run()
        return try await db.raw(select).first().map { try $0.string("id") }
    }

    /// Deletes codes past their expiry (the pruning pass).
    static func pruneOneTimeTokens(before now: Date, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM one_time_tokens WHERE expires_at <= \(bind: now.stored)").run()
    }
}
