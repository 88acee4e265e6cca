extension Migrations {
    /// Issue 40, item 1: anonymous users (GoTrue's `users.is_anonymous`). Their
    /// `email` stays NULL, which the unique index allows many times over.
    static func anonymousSteps(_ f: SQLFlavor) -> [String] {
        [
            "ALTER TABLE users ADD COLUMN is_anonymous \(f.integer) NOT NULL DEFAULT 0",
            // `users prune-anonymous` reads only anonymous rows.
            "CREATE INDEX IF NOT EXISTS users_is_anonymous ON users (is_anonymous)",
        ]
    }
}
