import Foundation
import SessionCore

/// A password sign-up when addresses must be confirmed (mail configured, no
/// `--autoconfirm`): docs/DESIGN.md, "Confirming a sign-up's address".
extension EmailCodeService {
    /// `POST /signup`: creates the account unconfirmed, mails a confirmation
    /// code and link, and answers GoTrue's way: the user, no session.
    ///
    /// The answer is the same whether or not the address had an account (a
    /// stand-in user with a fresh id, as GoTrue's obfuscated user), and the
    /// password is hashed on both paths, so neither answer nor timing says
    /// which it was.
    ///
    /// - Throws: ``AuthError/emailRateLimited(retryAfter:)`` for a second
    ///   sign-up of one address within the minute; validation errors.
    func signUpUnconfirmed(_ credentials: PasswordCredentials, link: LinkTarget) async throws -> SignUpAnswer {
        let (mail, email) = try await prepare(credentials.email, purpose: .signUp)
        try sessions.validate(password: credentials.password)
        let hash = await sessions.hasher.hash(credentials.password)
        let now = sessions.clock.now
        let metadata = credentials.data ?? [:]
        do {
            let user = try await sessions.store.createUser(
                email: email, passwordHash: hash, metadata: metadata, now: now, confirmed: false)
            try await issue(.signUp, to: email, createUser: false, metadata: [:], link: link, mail: mail, priority: .bulk)
            return SignUpAnswer(user: user.sessionUser, confirmationSentAt: now)
        } catch let error as AuthError where error == .userAlreadyExists {
            if let existing = try await sessions.store.user(email: email), existing.emailConfirmedAt == nil {
                // A second sign-up for an address still waiting: neither password is
                // proven, so neither is kept. The first goes now, with its metadata
                // (an attacker's, perhaps), and the mail's code is a sign-in code;
                // issuing it voids the first sign-up's confirmation code (issue 37,
                // item 1). The person sets a password once signed in.
                try await sessions.store.forgetUnconfirmedSignUp(email: email, now: now)
                // Mail to an account that exists: from the reserved share of the mail budget.
                try await issue(.signIn, to: email, createUser: false, metadata: [:], link: link, mail: mail)
            } else {
                // A confirmed address gets no mail, but the same work as a new one (issue 37,
                // item 9): a code row written and the mail budgets asked, so timing says nothing.
                try await decoyConfirmation(for: email, now: now)
            }
            let standIn = UserRecord(
                id: UUID().uuidString.lowercased(), email: email, passwordHash: hash, userMetadata: metadata,
                createdAt: now, updatedAt: now, lastSignInAt: nil, emailConfirmedAt: nil)
            return SignUpAnswer(user: standIn.sessionUser, confirmationSentAt: now)
        }
    }
}

extension EmailCodeService {
    /// The writes a new sign-up makes, for an address that gets no mail: a
    /// confirmation row under a key no lookup reads (never the address's own,
    /// which would replace a real code), and the bulk mail budgets on their
    /// decoy key. The row expires and is pruned as any code.
    func decoyConfirmation(for email: String, now: Date) async throws {
        try await sessions.store.issueOneTimeToken(
            id: UUID().uuidString.lowercased(), purpose: .signUp, email: "decoy " + email, code: Self.newCode(),
            linkHash: SHA256Hex.of(RefreshTokenCodec.generate()), createUser: false, metadata: [:], now: now,
            lifetime: configuration.emailCodeLifetime)
        _ = try await spendMailBudget(to: email, priority: .bulk, deliver: false)
    }
}

/// GoTrue's answer to a sign-up that waits for confirmation: the user's
/// fields at the top level, with `confirmation_sent_at`, and no session.
struct SignUpAnswer: Sendable, Encodable {
    var user: SessionUser
    var confirmationSentAt: Date

    private enum CodingKeys: String, CodingKey { case confirmationSentAt = "confirmation_sent_at" }

    func encode(to encoder: any Encoder) throws {
        try user.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(confirmationSentAt, forKey: .confirmationSentAt)
    }
}
