import Foundation
import Logging
import SessionCore

/// An email change: an anonymous user becoming permanent, and GoTrue's secure
/// change for a person with an address (docs/ACCOUNTS.md, "Becoming permanent"
/// and "A confirmed email change (server)"; GoTrue's `internal/api/user.go`,
/// `verify.go`, `resend.go`).
extension EmailCodeService {
    /// What redeeming an `email_change` code answered.
    enum EmailChangeAnswer: Sendable {
        /// GoTrue's single-confirmation answer: the other address's code is still to come.
        case firstConfirmed
        /// The address changed; the session is the bearer's own when it carried one (the same-session contract).
        case changed(TokenResponse, sameSession: Bool)
        /// The address changed; no session was asked for (a link confirmed with no app to return to).
        case changedWithoutSession(SessionUser)
    }

    /// GoTrue's answer to the first of two confirmations (`singleConfirmationAccepted`, `internal/api/verify.go`).
    static let singleConfirmationMessage =
        "Confirmation link accepted. Please proceed to confirm link sent to the other email"

    /// `PUT /user {email}`: mails a code and link to the new address and, when
    /// the account holds one, to the current address too (GoTrue's secure
    /// change). Nothing changes until every code mailed is redeemed.
    ///
    /// The caller has checked `aal2` (a verified second factor) already.
    /// A person with an address proves presence as a password change does
    /// (``PresenceCheck``); an anonymous user cannot (no password, no mailbox,
    /// no way to sign in again), and the mailbox they name proves itself.
    ///
    /// - Parameter presenceProven: the same request already proved presence (it also sets a password).
    /// - Throws: ``AuthError/emailExists``, ``AuthError/mailUnavailable``,
    ///   ``AuthError/emailRateLimited(retryAfter:)``, the presence check's errors.
    /// - Parameter sessionID: the asking session (an API token's, or the account page's own).
    func requestEmailChange(
        sessionID: String?, user: UserRecord, to rawEmail: String, currentPassword: String?, nonce: String?,
        presenceProven: Bool, link: LinkTarget, ip: String?
    ) async throws -> UserRecord {
        let newEmail = try SessionService.normalize(email: rawEmail)
        guard let mail, queue != nil else { throw AuthError.mailUnavailable }
        // GoTrue's order: the address is checked before any mail limit is spent on it.
        if try await sessions.store.isAddressHeld(newEmail, byOtherThan: user.id) { throw AuthError.emailExists }
        if !user.isAnonymous, !presenceProven {
            try await presence.require(sessionID: sessionID, user: user, currentPassword: currentPassword, nonce: nonce, ip: ip)
        }
        return try await mailEmailChange(for: user, to: newEmail, mail: mail, link: link, ip: ip)
    }

    /// `POST /resend {type: "email_change", email}`: mails the pending change's
    /// codes again (new ones; the old stop working), with the limits of a first
    /// request. `email` names the account as GoTrue's does (its current address),
    /// or, for the bearer's own account, its pending address.
    ///
    /// The answer is the same whether or not anything was sent.
    func resendEmailChange(email rawEmail: String, bearerUserID: String?, link: LinkTarget, ip: String?) async throws {
        guard let mail, queue != nil else { throw AuthError.mailUnavailable }
        let email = try SessionService.normalize(email: rawEmail)
        guard let user = try await sessions.store.userForEmailChangeResend(email: email, bearerUserID: bearerUserID),
            let pending = user.pendingEmail
        else {
            logger.debug("No email change resent: no pending change for the address")
            return
        }
        _ = try await mailEmailChange(for: user, to: pending, mail: mail, link: link, ip: ip)
    }

    /// `POST /verify {type: "email_change"}` with a code or a link's token.
    ///
    /// - Parameter bearer: the request's own valid access token, if any: the
    ///   last confirmation then answers with that session when it is this
    ///   user's and live (docs/ACCOUNTS.md, "The same-session contract").
    /// - Throws: ``AuthError/emailCodeInvalid`` for every refusal of the code;
    ///   ``AuthError/emailExists`` when the address was taken meanwhile.
    /// - Parameter issuesSession: `false` where nobody can receive a session (a link page with nowhere to return).
    func verifyEmailChange(
        _ lookup: AuthStore.OneTimeTokenLookup, bearer: AuthenticatedIdentity?, origin: SessionService.Origin,
        issuesSession: Bool = true
    ) async throws -> EmailChangeAnswer {
        let presented = try await presented(lookup, origin: origin)
        let plan: AuthStore.EmailChangeSessionPlan =
            bearer.flatMap { identity in identity.sessionID.map { .sameSessionIfLive(userID: identity.userID, sessionID: $0) } }
            ?? (issuesSession ? .newSession : .noSession)
        let outcome = try await sessions.store.redeemEmailChange(
            presented,
            .init(
                plan: plan, origin: origin, now: sessions.clock.now, maximumAttempts: configuration.emailCodeAttempts,
                refreshTokenTTL: configuration.refreshTokenTTL, absoluteTTL: configuration.sessionAbsoluteTTL,
                kek: sessions.policy.keyEncryptionKey))
        switch outcome {
        case .firstConfirmed:
            return .firstConfirmed
        case .changed(let user, let session, let refreshToken, let sameSession):
            logger.info("Email address changed", metadata: ["user": "\(user.id)", "same_session": "\(sameSession)"])
            let response = try await sessions.tokenResponse(
                user: user, session: session, refreshToken: refreshToken, binding: origin.dpopJKT)
            return .changed(response, sameSession: sameSession)
        case .changedWithoutSession(let user):
            logger.info("Email address changed", metadata: ["user": "\(user.id)", "same_session": "false"])
            return .changedWithoutSession(user.sessionUser)
        case .refused(let error):
            throw error
        }
    }

    /// Issues the change's codes (the new address's, and the current one's
    /// when the account holds one) and queues their mail.
    private func mailEmailChange(
        for user: UserRecord, to newEmail: String, mail: MailConfiguration, link: LinkTarget, ip: String?
    ) async throws -> UserRecord {
        var recipients: [(AuthStore.EmailChangeSide, String)] = [(.new, newEmail)]
        if let current = user.email { recipients.append((.current, current)) }
        var addresses: [MailAddress] = []
        for (_, address) in recipients {
            do {
                addresses.append(try MailAddress(address))
            } catch {
                // normalize(email:) accepted it; the stricter mail rules did not. Checked before anything is stored.
                throw AuthError.invalidRequest(field: "email", "This email address cannot receive mail from this server.")
            }
        }
        // Per mailbox, as every email (issue 37, item 10): one change's mail a minute to an address.
        for (_, address) in recipients {
            if case .limited(let seconds) = try await addressLimiter.attempt("email_change:" + CanonicalMailbox.of(address)) {
                throw AuthError.emailRateLimited(retryAfter: seconds)
            }
        }
        let issued = recipients.map { side, address in (side, address, Self.newCode(), RefreshTokenCodec.generate()) }
        let updated = try await sessions.store.startEmailChange(
            userID: user.id, newEmail: newEmail,
            codes: issued.map { .init(side: $0.0, email: $0.1, code: $0.2, linkHash: SHA256Hex.of($0.3)) },
            now: sessions.clock.now, lifetime: configuration.emailCodeLifetime, ip: ip)
        for ((_, address, code, linkToken), recipient) in zip(issued, addresses) {
            let values: [MailTemplate.Placeholder: String] = [
                .token: code, .tokenHash: linkToken, .email: user.email ?? "", .newEmail: newEmail, .siteURL: link.root,
                .confirmationURL: Self.verifyURL(root: link.root, token: linkToken, type: "email_change", redirectTo: link.redirectTo),
                .redirectTo: link.redirectTo ?? "",
            ]
            let (subject, text, html) = mail.templates[.emailChange].render(values)
            // Mail to an account that exists: from the reserved share of the mail budget.
            if try await spendMailBudget(to: address, priority: .account, deliver: true) {
                queue?.enqueue(MailMessage(from: mail.sender, to: recipient, subject: subject, text: text, html: html), priority: .account)
            }
        }
        return updated
    }
}
