import Foundation

/// One rate limiter of the server: its name, what one counter is kept per,
/// its limit (read from the configuration) and its window.
///
/// ``RateLimitRule/all`` is the one table every limiter is built from
/// (``RateLimiters``), the table docs/SERVER.md's "Rate limits" lists (a test
/// compares them), and the table the PostgreSQL prune reads each limiter's
/// window from. On PostgreSQL the name keys the shared counters: renaming a
/// rule starts its counts afresh.
public struct RateLimitRule: Sendable, Hashable, CustomStringConvertible {
    /// Keeps this limiter's counts apart from the others' (`token-ip`, `sign-in-email`, …).
    public let name: String
    /// What one counter is kept per, in words (docs/SERVER.md's "per" column).
    public let per: String
    /// Window length in seconds; a key's window starts with its first request.
    public let window: TimeInterval
    /// Slots per row of the in-memory limiter's count-min sketch (``RateLimiter``).
    ///
    /// A key is refused early when both its slots are shared with keys that
    /// used them this window. At a limit of 1 a single such collision refuses
    /// a real person: a flood of 1,000 recoveries to made-up addresses in a
    /// minute refused about one real address in 16,384 slots a run
    /// (MailFloodAttackTests); a wider sketch makes that about 1 in 300 floods.
    let sketchWidth: Int
    private let limitIn: @Sendable (AuthServerConfiguration) -> Int

    init(
        _ name: String, per: String, window: TimeInterval, sketchWidth: Int = 16_384,
        limit: @escaping @Sendable (AuthServerConfiguration) -> Int
    ) {
        self.name = name
        self.per = per
        self.window = window
        self.sketchWidth = sketchWidth
        self.limitIn = limit
    }

    /// Requests allowed per window and key under `configuration`.
    public func limit(in configuration: AuthServerConfiguration) -> Int { limitIn(configuration) }

    public var description: String { name }

    public static func == (lhs: RateLimitRule, rhs: RateLimitRule) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension RateLimitRule {
    /// Every limiter the server builds, one row each. A new limiter is one
    /// `static let` below, one entry here and one row in docs/SERVER.md's table.
    public static let all: [RateLimitRule] = [
        tokenIP, webIP, mailIP, signInEmail, signInEmailHour, emailAddress, emailCodeHour, emailCodeDay,
        emailCodeAddressDay, nonceUserHour, nonceUserDay, emailCodeAudit, passwordCheckAudit, mailDomain, mailDomainBulk, mailGlobal, mailGlobalBulk, userUpdate, gatewayUser,
        mfaChallengeIP, mfaVerifyIP, passkeyOptionsIP, anonymousSignInIP,
    ]

    /// The longest window of any rule: rows of a limiter no rule names any more are pruned after it.
    public static var longestWindow: TimeInterval { all.map(\.window).max() ?? 60 }

    /// `/auth/v1` requests that may cost work (sign-in, sign-up, codes, OAuth, `PUT /user`).
    static let tokenIP = RateLimitRule("token-ip", per: "client IP (/64 for IPv6)", window: 60) {
        $0.tokenRequestsPerMinutePerIP
    }
    /// `/account` and `/admin` form posts.
    static let webIP = RateLimitRule("web-ip", per: "client IP (/64 for IPv6)", window: 60) {
        $0.tokenRequestsPerMinutePerIP
    }
    /// Requests that may send mail, on the API (`/otp`, `/recover`, an unconfirmed
    /// sign-up, `/reauthenticate`) and on `/account` alike: one budget.
    static let mailIP = RateLimitRule("mail-ip", per: "client IP (/64 for IPv6)", window: 60) {
        $0.mailRequestsPerMinutePerIP
    }
    /// Password guesses at one account, a minute.
    static let signInEmail = RateLimitRule("sign-in-email", per: "account email", window: 60) {
        $0.passwordSignInsPerMinutePerEmail
    }
    /// Password guesses at one account, an hour.
    static let signInEmailHour = RateLimitRule("sign-in-email-hour", per: "account email", window: 3600) {
        $0.passwordSignInsPerHourPerEmail
    }
    /// Mail of one purpose to one mailbox (``CanonicalMailbox``).
    /// Its limit is 1, so it keeps a wide sketch (``sketchWidth``; 6 MiB of memory).
    static let emailAddress = RateLimitRule(
        "email-address", per: "recipient mailbox and purpose", window: 60, sketchWidth: 1 << 18
    ) {
        $0.emailsPerMinutePerAddress
    }
    /// Email codes presented for one address from one network, an hour.
    static let emailCodeHour = RateLimitRule("email-code-hour", per: "address and client network (/24, /48)", window: 3600) {
        $0.emailCodeGuessesPerHourPerAddress
    }
    /// Email codes presented for one address from one network, a day.
    static let emailCodeDay = RateLimitRule("email-code-day", per: "address and client network (/24, /48)", window: 86_400) {
        $0.emailCodeGuessesPerDayPerAddress
    }
    /// Email codes presented for one address from every network, a day: five networks' worth.
    static let emailCodeAddressDay = RateLimitRule("email-code-address-day", per: "address", window: 86_400) {
        $0.emailCodeGuessesPerDayPerAddress * 5
    }
    /// Re-authentication nonces presented by one signed-in user, an hour.
    static let nonceUserHour = RateLimitRule("nonce-user-hour", per: "user", window: 3600) {
        $0.emailCodeGuessesPerHourPerAddress
    }
    /// Re-authentication nonces presented by one signed-in user, a day.
    static let nonceUserDay = RateLimitRule("nonce-user-day", per: "user", window: 86_400) {
        $0.emailCodeGuessesPerDayPerAddress
    }
    /// One audit entry per locked-out address an hour, however many guesses follow.
    static let emailCodeAudit = RateLimitRule("email-code-audit", per: "address", window: 3600) { _ in 1 }
    /// One audit entry per account an hour whose password budget refuses `current_password` checks.
    static let passwordCheckAudit = RateLimitRule("password-check-audit", per: "account email", window: 3600) { _ in 1 }
    /// Mail queued to one recipient domain.
    static let mailDomain = RateLimitRule("mail-domain", per: "recipient domain", window: 60) {
        $0.mailsPerMinutePerDomain
    }
    /// Bulk mail's share of ``mailDomain``: the rest is kept for mail to existing accounts.
    static let mailDomainBulk = RateLimitRule("mail-domain-bulk", per: "recipient domain", window: 60) {
        bulkShare(of: $0.mailsPerMinutePerDomain)
    }
    /// All mail the server queues.
    static let mailGlobal = RateLimitRule("mail-global", per: "server", window: 3600) { $0.mailsPerHour }
    /// Bulk mail's share of ``mailGlobal``: the rest is kept for mail to existing accounts.
    static let mailGlobalBulk = RateLimitRule("mail-global-bulk", per: "server", window: 3600) {
        bulkShare(of: $0.mailsPerHour)
    }

    /// Three quarters, as the mail queue keeps its last quarter for existing accounts.
    static func bulkShare(of budget: Int) -> Int { budget * 3 / 4 }
    /// `PUT /auth/v1/user`.
    static let userUpdate = RateLimitRule("user-update", per: "user", window: 60) { $0.userUpdatesPerMinutePerUser }
    /// `/v1` gateway requests.
    static let gatewayUser = RateLimitRule("gateway-user", per: "user", window: 60) {
        $0.gatewayRequestsPerMinutePerUser
    }
    /// `POST /factors/{id}/challenge`, on top of the account's guessing budget (GoTrue limits it per IP).
    static let mfaChallengeIP = RateLimitRule("mfa-challenge-ip", per: "client IP (/64 for IPv6)", window: 60) {
        $0.mfa.requestsPerMinutePerIP
    }
    /// `POST /factors/{id}/verify`, on top of the account's guessing budget (GoTrue limits it per IP).
    static let mfaVerifyIP = RateLimitRule("mfa-verify-ip", per: "client IP (/64 for IPv6)", window: 60) {
        $0.mfa.requestsPerMinutePerIP
    }
    /// `POST /passkeys/authentication/options`: no user is named up front, so per IP (GoTrue's 30).
    static let passkeyOptionsIP = RateLimitRule("passkey-options-ip", per: "client IP (/64 for IPv6)", window: 60) {
        $0.passkeys?.authenticationOptionsPerMinutePerIP ?? 30
    }
    /// `POST /signup` without email or phone: anonymous accounts made from one
    /// address, an hour (GoTrue's `RATE_LIMIT_ANONYMOUS_USERS`, 30), on top of ``tokenIP``.
    static let anonymousSignInIP = RateLimitRule("anonymous-sign-in-ip", per: "client IP (/64 for IPv6)", window: 3600) {
        $0.anonymousSignInsPerHourPerIP
    }
}
