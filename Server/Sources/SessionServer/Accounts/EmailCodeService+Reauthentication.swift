import Foundation
import SessionCore

/// `POST /reauthenticate` and the `nonce` it mails (docs/EMAIL.md,
/// "Re-authentication"): fresh proof for a person who has no password.
extension EmailCodeService {
    /// Mails a six-digit nonce to the signed-in user's address, replacing
    /// any still outstanding. The same limits as every code: one email a
    /// minute per address, the domain's and the server's budgets.
    ///
    /// - Throws: ``AuthError/invalidRequest(field:_:)`` for an account with
    ///   no email (a Strava-only account: sign in again instead),
    ///   ``AuthError/emailNotConfirmed`` for an unconfirmed address (GoTrue's
    ///   rule: a nonce to an unproven mailbox proves nothing),
    ///   ``AuthError/emailRateLimited(retryAfter:)``, ``AuthError/mailUnavailable``.
    func sendReauthentication(to user: UserRecord, ip: String?, from: String) async throws {
        guard let address = user.email else {
            throw AuthError.invalidRequest(
                field: "email",
                "Reauthentication requires the user to have an email address; sign in again instead, then retry the change.")
        }
        guard user.emailConfirmedAt != nil else { throw AuthError.emailNotConfirmed }
        let (mail, email) = try await prepare(address, purpose: .reauthentication)
        // The root is only for the {{ .SiteURL }} placeholder; this email has no link.
        let root = configuration.externalURL.map { $0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString } ?? ""
        try await issue(
            .reauthentication, to: email, createUser: false, metadata: [:], link: .init(root: root, redirectTo: nil), mail: mail)
        try await sessions.store.audit(
            actor: user.id, action: "reauthentication_requested", target: user.id, ip: ip,
            details: ["from": .string(from)], now: sessions.clock.now)
    }

    /// Spends `nonce` as proof for `user`, once.
    ///
    /// - Throws: ``AuthError/reauthenticationNotValid`` for every refusal;
    ///   ``AuthError/emailCodeGuessesLimited(retryAfter:)`` once the address's
    ///   guessing budget (shared with every other code) is spent.
    func verifyReauthentication(_ nonce: String, for user: UserRecord, ip: String?) async throws {
        let digits = nonce.filter { !$0.isWhitespace && $0 != "-" }
        guard let email = user.email, digits.count == 6, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            throw AuthError.reauthenticationNotValid
        }
        try await spendNonceGuess(userID: user.id, address: email, origin: .init(userAgent: nil, ip: ip))
        guard
            try await sessions.store.consumeReauthenticationNonce(
                email: email, nonce: digits, now: sessions.clock.now, maximumAttempts: configuration.emailCodeAttempts)
        else { throw AuthError.reauthenticationNotValid }
    }

    /// The presence check that also takes a mailed nonce.
    var presence: PresenceCheck {
        var check = sessions.presence
        check.nonces = self
        return check
    }
}
