extension Migrations {
    /// Issue 43 (docs/DPOP.md): the key thumbprint a session is bound to, and
    /// the DPoP proofs seen within their window. `key` is a SHA-256 of the
    /// key's thumbprint and the proof's `jti`; rows go once `expires_at` passes.
    static func dpopSteps(_ f: SQLFlavor) -> [String] {
        [
            "ALTER TABLE sessions ADD COLUMN dpop_jkt TEXT",
            "CREATE TABLE IF NOT EXISTS dpop_proofs (key TEXT PRIMARY KEY, expires_at \(f.timestamp) NOT NULL)",
            "CREATE INDEX IF NOT EXISTS dpop_proofs_expires_at ON dpop_proofs (expires_at)",
        ]
    }
}
