extension Migrations {
    /// Issue 40, items 2 and 4: a pending email change (docs/ACCOUNTS.md,
    /// "A confirmed email change (server)"). The user row says what is pending
    /// (GoTrue's `users.email_change` and `email_change_sent_at`, shown as
    /// `new_email`); the codes live in their own table, one row per side
    /// (`current`, `new`), hashed as the other email codes are.
    static func emailChangeSteps(_ f: SQLFlavor) -> [String] {
        [
            "ALTER TABLE users ADD COLUMN email_change TEXT",
            "ALTER TABLE users ADD COLUMN email_change_sent_at \(f.timestamp)",
            """
            CREATE TABLE IF NOT EXISTS email_change_codes (
              id TEXT PRIMARY KEY, user_id TEXT NOT NULL, side TEXT NOT NULL, email TEXT NOT NULL,
              code_hash TEXT NOT NULL, link_hash TEXT NOT NULL UNIQUE, created_at \(f.timestamp) NOT NULL,
              expires_at \(f.timestamp) NOT NULL, attempts \(f.integer) NOT NULL, UNIQUE (user_id, side))
            """,
            // `/verify` with a code looks rows up by the address the code went to.
            "CREATE INDEX IF NOT EXISTS email_change_codes_email ON email_change_codes (email)",
            "CREATE INDEX IF NOT EXISTS email_change_codes_expires_at ON email_change_codes (expires_at)",
        ]
    }
}
