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
                // proven, so neither is kept. The mail's code is a sign-in code, which
                // clears the first password when redeemed; the person sets one after.
                try await issue(.signIn, to: email, createUser: false, metadata: [:], link: link, mail: mail, priority: .bulk)
            }
            let standIn = UserRecord(
                id: UUID().uuidString.lowercased(), email: email, passwordHash: hash, userMetadata: metadata,
                createdAt: now, updatedAt: now, lastSignInAt: nil, emailConfirmedAt: nil)
            return SignUpAnswer(user: standIn.sessionUser, confirmationSentAt: now)
        }
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
