extension Migrations {
    /// Issue 37: each shared rate-limit row names its limiter, so the prune
    /// keeps it for that limiter's own window (a day for `email-code-day`);
    /// and each account remembers when its newest sign-up was requested, so no
    /// code redeemed later confirms a password set before it (item 1).
    static func securityRoundSteps(_ f: SQLFlavor) -> [String] {
        [
            "ALTER TABLE rate_limits ADD COLUMN limiter TEXT NOT NULL DEFAULT ''",
        ]
    }
}
