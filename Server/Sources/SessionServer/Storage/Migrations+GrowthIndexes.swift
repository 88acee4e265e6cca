extension Migrations {
    /// Issue 44, item 3: the hourly prune finds dead sessions by `not_after`
    /// and `revoked_at`, which had no index: every prune read the whole
    /// sessions table (10 million rows at a million users) inside the
    /// transaction every refresh waits behind on SQLite. With both indexed,
    /// SQLite and PostgreSQL read only the dead rows (docs/BENCHMARKS.md,
    /// "Round 3 — item 3"). The prune's deletes of second-factor challenges
    /// (by age) and of unverified factors (by status and age) read the whole
    /// of their tables on SQLite for the same reason.
    static func growthIndexSteps(_ f: SQLFlavor) -> [String] {
        [
            "CREATE INDEX IF NOT EXISTS sessions_not_after ON sessions (not_after)",
            "CREATE INDEX IF NOT EXISTS sessions_revoked_at ON sessions (revoked_at)",
            "CREATE INDEX IF NOT EXISTS mfa_challenges_created_at ON mfa_challenges (created_at)",
            "CREATE INDEX IF NOT EXISTS mfa_factors_status_created_at ON mfa_factors (status, created_at)",
        ]
    }
}
