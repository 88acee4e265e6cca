import SQLKit

extension Migrations {
    /// Passkeys (issue 39, docs/PASSKEYS.md): each WebAuthn credential with
    /// its public key, counter and backup flags, and the outstanding
    /// ceremony challenges (single use, five minutes).
    static func passkeySteps(_ f: SQLFlavor) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS webauthn_credentials (
              id TEXT PRIMARY KEY, user_id TEXT NOT NULL, credential_id TEXT NOT NULL UNIQUE, public_key TEXT NOT NULL,
              algorithm \(f.integer) NOT NULL, sign_count \(f.integer) NOT NULL, backup_eligible \(f.integer) NOT NULL,
              backed_up \(f.integer) NOT NULL, transports TEXT NOT NULL, aaguid TEXT NOT NULL, friendly_name TEXT,
              created_at \(f.timestamp) NOT NULL, last_used_at \(f.timestamp))
            """,
            "CREATE INDEX IF NOT EXISTS webauthn_credentials_user_id ON webauthn_credentials (user_id)",
            """
            CREATE TABLE IF NOT EXISTS webauthn_challenges (
              id TEXT PRIMARY KEY, kind TEXT NOT NULL, user_id TEXT, challenge TEXT NOT NULL,
              created_at \(f.timestamp) NOT NULL, expires_at \(f.timestamp) NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS webauthn_challenges_expires_at ON webauthn_challenges (expires_at)",
        ]
    }
}
