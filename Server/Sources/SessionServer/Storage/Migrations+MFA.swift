import SQLKit

extension Migrations {
    /// Issue 38: second factors (docs/MFA.md). A factor's TOTP secret is sealed
    /// under the key-encryption key, bound to the factor's id; `last_step` is the
    /// newest 30-second step a code was accepted for, so a code is never used twice.
    /// A session records its assurance level and when and with which factor it reached it.
    static func mfaSteps(_ f: SQLFlavor) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS mfa_factors (
              id TEXT PRIMARY KEY, user_id TEXT NOT NULL, friendly_name TEXT, factor_type TEXT NOT NULL,
              status TEXT NOT NULL, secret TEXT NOT NULL, created_at \(f.timestamp) NOT NULL,
              updated_at \(f.timestamp) NOT NULL, last_challenged_at \(f.timestamp), last_step \(f.integer))
            """,
            "CREATE INDEX IF NOT EXISTS mfa_factors_user_id ON mfa_factors (user_id)",
            """
            CREATE TABLE IF NOT EXISTS mfa_challenges (
              id TEXT PRIMARY KEY, factor_id TEXT NOT NULL, created_at \(f.timestamp) NOT NULL,
              verified_at \(f.timestamp), ip TEXT)
            """,
            "CREATE INDEX IF NOT EXISTS mfa_challenges_factor_id ON mfa_challenges (factor_id)",
            "ALTER TABLE sessions ADD COLUMN aal TEXT",
            "ALTER TABLE sessions ADD COLUMN mfa_verified_at \(f.timestamp)",
            "ALTER TABLE sessions ADD COLUMN factor_id TEXT",
        ]
    }
}
