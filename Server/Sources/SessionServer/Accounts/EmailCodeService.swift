import Foundation
import Logging
import SessionCore

/// Email codes and links: sign-in without a password (`/otp`), password
/// reset (`/recover`), and redeeming either (`/verify`). docs/EMAIL.md has
/// the flows; docs/DESIGN.md, "Email codes and links", the rules.
///
/// Neither the answer nor its timing says whether an address has an account:
/// the answer is the same, and mail leaves through ``MailQueue`` afterwards.
struct EmailCodeService: Sendable {
    let sessions: SessionService
    let mail: MailConfiguration?
    let queue: MailQueue?
    /// Emails per address and purpose.
    let addressLimiter: any RateLimiting
    /// Codes presented per address (an hour's, a day's), right or wrong, across
    /// reissues and purposes: the bound on guessing (docs/DESIGN.md, "Email codes and links").
    let guessLimiters: [any RateLimiting]
    /// The address's own day budget across every network: the backstop on a distributed guesser.
    let addressGuessLimiter: any RateLimiting
    /// Nonces presented per signed-in user (an hour's, a day's): a budget of their own,
    /// so anonymous wrong codes cannot lock a signed-in person out of re-authenticating.
    let nonceLimiters: [any RateLimiting]
    /// One audit entry per address and hour for a refused guess, not one per refusal.
    let lockoutAudit: any RateLimiting
    /// Emails queued per recipient domain, and its share for bulk mail.
    let domainLimiter: any RateLimiting
    let domainBulkLimiter: any RateLimiting
    /// Emails queued for the whole server (one key), and its share for bulk mail.
    let globalLimiter: any RateLimiting
    let globalBulkLimiter: any RateLimiting
    let logger: Logger

    var configuration: AuthServerConfiguration { sessions.configuration }

    /// Where the email's link leads and where it sends the person after.
    struct LinkTarget: Sendable {
        /// This server's public root (`https://auth.example.com`).
        var root: String
        /// An allowed `redirect_to`, if the request gave one.
        var redirectTo: String?
    }

    /// `POST /otp`: mails a sign-in code and link to `email`. Creates the
    /// account on first use when `createUser` (the account appears only once
    /// the code is redeemed, so nobody can fill the table with others' addresses).
    func sendSignInCode(
        to rawEmail: String, createUser: Bool, metadata: [String: JSONValue], link: LinkTarget
    ) async throws {
        let (mail, email) = try await prepare(rawEmail, purpose: .signIn)
        let exists = try await sessions.store.user(email: email) != nil
        guard exists || createUser else {
            logger.debug("No sign-in code sent: no account and create_user is false")
            // The same work as a real code, short of the mail: the answer's timing says nothing.
            try await issue(.signIn, to: email, createUser: false, metadata: [:], link: link, mail: mail, deliver: false)
            return
        }
        try await issue(
            .signIn, to: email, createUser: createUser, metadata: metadata, link: link, mail: mail,
            priority: exists ? .account : .bulk)
    }

    /// `POST /recover`: mails a reset code and link when `email` has an account.
    func sendPasswordReset(to rawEmail: String, link: LinkTarget) async throws {
        let (mail, email) = try await prepare(rawEmail, purpose: .recovery)
        guard try await sessions.store.user(email: email) != nil else {
            logger.debug("No reset code sent: no account for the address")
            // The same work as a real code, short of the mail (issue 29, item 6): a row no
            // mailed code matches, redeeming to nothing since there is no account.
            try await issue(.recovery, to: email, createUser: false, metadata: [:], link: link, mail: mail, deliver: false)
            return
        }
        try await issue(.recovery, to: email, createUser: false, metadata: [:], link: link, mail: mail)
    }

    /// `POST /verify`: a session for a redeemed code or link.
    ///
    /// - Throws: ``AuthError/emailCodeInvalid`` for every refusal.
    func verify(_ lookup: AuthStore.OneTimeTokenLookup, type: VerifyType, origin: SessionService.Origin) async throws
        -> TokenResponse
    {
        let redeemed = try await redeem(lookup, type: type, origin: origin, absoluteTTL: configuration.sessionAbsoluteTTL)
        return try await sessions.tokenResponse(
            user: redeemed.user, session: redeemed.session, refreshToken: redeemed.refreshToken, binding: origin.dpopJKT)
    }

    /// What the store looks up for a presented code or link: a code is six
    /// digits or nothing (a longer guess is not a better one) and spends the
    /// address's guessing budget, shared with every other code (docs/DESIGN.md,
    /// "Email codes and links"); a link is looked up by its hash.
    ///
    /// - Throws: ``AuthError/emailCodeInvalid`` for a code or link that cannot be one.
    func presented(
        _ lookup: AuthStore.OneTimeTokenLookup, origin: SessionService.Origin
    ) async throws -> AuthStore.OneTimeTokenLookup {
        switch lookup {
        case .code(let email, let code):
            guard code.count == 6, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber) else {
                throw AuthError.emailCodeInvalid
            }
            let address = try SessionService.normalize(email: email)
            try await spendGuess(address, origin: origin)
            return .code(email: address, code: code)
        case .link(let token):
            guard !token.isEmpty, token.utf8.count <= 128 else { throw AuthError.emailCodeInvalid }
            return .link(hash: SHA256Hex.of(token))
        }
    }

    /// Redeems a code or link for a new session row (the account page keeps
    /// the row and gives the browser a cookie instead of tokens).
    ///
    /// - Parameter absoluteTTL: the session's hard cap (the page's is shorter than an app's).
    /// - Throws: ``AuthError/emailCodeInvalid`` for every refusal.
    func redeem(
        _ lookup: AuthStore.OneTimeTokenLookup, type: VerifyType, origin: SessionService.Origin, absoluteTTL: TimeInterval
    ) async throws -> AuthStore.RedeemedCode {
        let presented = try await presented(lookup, origin: origin)
        guard
            let redeemed = try await sessions.store.redeemOneTimeToken(
                presented, purposes: type.purposes, now: sessions.clock.now, origin: origin,
                refreshTokenTTL: configuration.refreshTokenTTL, absoluteTTL: absoluteTTL,
                maximumAttempts: configuration.emailCodeAttempts)
        else { throw AuthError.emailCodeInvalid }
        logger.info("Signed in with an email code", metadata: ["user": "\(redeemed.user.id)", "type": "\(type.rawValue)"])
        return redeemed
    }

    /// Counts a code presented for `address`; refuses it, with an audit
    /// entry and a metric, once the budget is spent. The budget belongs to
    /// the address, not to a code: asking for a new code does not refill it.
    /// It is kept per client network (issue 37, item 6): an attacker's wrong
    /// guesses from one network spend that network's budget, not the owner's
    /// elsewhere; a larger day budget across all networks bounds a guesser
    /// spread over many.
    func spendGuess(_ address: String, origin: SessionService.Origin) async throws {
        let network = origin.ip.flatMap { IPAddress($0) }?.networkKey ?? "unknown"
        let budgets: [(any RateLimiting, String)] = guessLimiters.map { ($0, address + " from " + network) } + [(addressGuessLimiter, address)]
        try await spend(budgets, address: address, origin: origin)
    }

    /// Counts a nonce presented by the signed-in user `userID` against their own budget.
    func spendNonceGuess(userID: String, address: String, origin: SessionService.Origin) async throws {
        try await spend(nonceLimiters.map { ($0, userID) }, address: address, origin: origin)
    }

    private func spend(
        _ budgets: [(any RateLimiting, String)], address: String, origin: SessionService.Origin
    ) async throws {
        for (limiter, key) in budgets {
            guard case .limited(let seconds) = try await limiter.attempt(key) else { continue }
            sessions.metrics.emailCodeGuessesLimited()
            if case .allowed = try await lockoutAudit.attempt(address) {
                logger.notice("Email code guesses limited for an address", metadata: ["retry_after": "\(seconds)"])
                try await sessions.store.audit(
                    actor: "anonymous", action: "email_code_guesses_limited", target: address, ip: origin.ip,
                    details: ["retry_after": .number(Double(seconds))], now: sessions.clock.now)
            }
            throw AuthError.emailCodeGuessesLimited(retryAfter: seconds)
        }
    }

    func prepare(_ rawEmail: String, purpose: AuthStore.OneTimeTokenPurpose) async throws
        -> (MailConfiguration, String)
    {
        guard let mail, queue != nil else { throw AuthError.mailUnavailable }
        let email = try SessionService.normalize(email: rawEmail)
        // Before the account lookup, so the limit is the same for every address.
        // Per mailbox, not per string: plus-addressing and Gmail's dots reach one inbox (issue 37, item 10).
        if case .limited(let seconds) = try await addressLimiter.attempt(purpose.rawValue + ":" + CanonicalMailbox.of(email)) {
            throw AuthError.emailRateLimited(retryAfter: seconds)
        }
        // The domain's and the server's budgets count mail queued, in issue(…) (issue 37, item 3).
        return (mail, email)
    }

    func issue(
        _ purpose: AuthStore.OneTimeTokenPurpose, to email: String, createUser: Bool, metadata: [String: JSONValue],
        link: LinkTarget, mail: MailConfiguration, priority: MailQueue.Priority = .account, deliver: Bool = true
    ) async throws {
        let code = Self.newCode()
        let linkToken = RefreshTokenCodec.generate()
        try await sessions.store.issueOneTimeToken(
            id: UUID().uuidString.lowercased(), purpose: purpose, email: email, code: code,
            linkHash: SHA256Hex.of(linkToken), createUser: createUser, metadata: metadata, now: sessions.clock.now,
            lifetime: configuration.emailCodeLifetime)
        let (kind, linkType): (MailTemplates.Kind, VerifyType) =
            switch purpose {
            case .signIn: (.magicLink, .magiclink)
            case .recovery: (.recovery, .recovery)
            case .signUp: (.confirmation, .signup)
            // The link type is never used: the reauthentication email has only its code.
            case .reauthentication: (.reauthentication, .email)
            }
        let values: [MailTemplate.Placeholder: String] = [
            .token: code, .tokenHash: linkToken, .email: email, .siteURL: link.root,
            .confirmationURL: Self.verifyURL(
                root: link.root, token: linkToken, type: linkType.rawValue, redirectTo: link.redirectTo),
            .redirectTo: link.redirectTo ?? "",
        ]
        let (subject, text, html) = mail.templates[kind].render(values)
        let recipient: MailAddress
        do {
            recipient = try MailAddress(email)
        } catch {
            // normalize(email:) accepted it; the stricter mail rules did not.
            throw AuthError.invalidRequest(field: "email", "This email address cannot receive mail from this server.")
        }
        let message = MailMessage(from: mail.sender, to: recipient, subject: subject, text: text, html: html)
        if try await spendMailBudget(to: email, priority: priority, deliver: deliver) {
            queue?.enqueue(message, priority: priority)
        }
    }
}

extension EmailCodeService {
    /// Six random digits, uniformly drawn.
    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
    }

    /// The link an email carries: `…/auth/v1/verify?token=…&type=…[&redirect_to=…]`.
    static func verifyURL(root: String, token: String, type: String, redirectTo: String?) -> String {
        var query = URLComponents()
        query.queryItems =
            [URLQueryItem(name: "token", value: token), URLQueryItem(name: "type", value: type)]
            + (redirectTo.map { [URLQueryItem(name: "redirect_to", value: $0)] } ?? [])
        return root + "/auth/v1/verify?" + (query.percentEncodedQuery ?? "")
    }
}

/// `type` of `/verify`: which email the code came from.
enum VerifyType: String, Sendable {
    case email, magiclink, signup, recovery

    /// `email`, `magiclink` and `signup` all redeem a sign-in code or a
    /// sign-up's confirmation code (GoTrue keeps the names apart for history,
    /// and its clients confirm a sign-up with `email`); `recovery` only a reset code.
    var purposes: [AuthStore.OneTimeTokenPurpose] { self == .recovery ? [.recovery] : [.signIn, .signUp] }

    /// - Throws: ``AuthError/invalidRequest(field:_:)`` naming what is supported.
    init(parsing text: String?) throws {
        guard let text, let type = VerifyType(rawValue: text) else {
            throw AuthError.invalidRequest(
                field: "type",
                "type must be one of email, magiclink, signup, recovery, email_change (got '\((text ?? "").prefix(40))'); invite and phone types are not supported by this server.")
        }
        self = type
    }
}
