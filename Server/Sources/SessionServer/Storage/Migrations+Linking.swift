extension Migrations {
    /// Issue 40, item 3: a provider flow started by `GET /user/identities/authorize`
    /// links to the signed-in user instead of signing in, and its code answers
    /// for the session that started it (docs/ACCOUNTS.md, "Linked identities (server)").
    /// Both NULL on every sign-in flow.
    static func linkingSteps(_ f: SQLFlavor) -> [String] {
        [
            "ALTER TABLE oauth_flows ADD COLUMN linking_user_id TEXT",
            "ALTER TABLE oauth_flows ADD COLUMN linking_session_id TEXT",
        ]
    }
}
