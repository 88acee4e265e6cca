import Foundation
import SQLKit

extension AuthStore: DPoPReplayGuard {
    /// One insert that either records the proof or finds it there: `ON
    /// CONFLICT DO NOTHING` is atomic on both databases, so two replicas
    /// handed the same proof at once accept it once (docs/DPOP.md, "Replay").
    public func recordFirstUse(of key: String, until expiresAt: Date, now: Date) async throws -> Bool {
        try await driver.transaction { db in
            try await db.raw(
                """
                INSERT INTO dpop_proofs (key, expires_at) VALUES (\(bind: key), \(bind: expiresAt.stored))
                ON CONFLICT (key) DO NOTHING RETURNING key
                """
            ).first() != nil
        }
    }

    /// The key thumbprint the session of `refreshTokenHash` is bound to, with
    /// that session and its user; `nil` for a token this store does not know
    /// (rotation then answers it as it always did).
    func dpopBinding(refreshTokenHash: String) async throws -> (sessionID: String, userID: String, jkt: String?)? {
        try await driver.read { db in
            guard let row = try await db.raw(
                """
                SELECT s.id, s.user_id, s.dpop_jkt FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id
                WHERE r.token_hash = \(bind: refreshTokenHash)
                """
            ).first() else { return nil }
            return (try row.string("id"), try row.string("user_id"), try row.optionalString("dpop_jkt"))
        }
    }

    /// Binds the session to `jkt` unless it is bound already; returns the key it is bound to now.
    /// A binding never changes once made: only a new sign-in starts an unbound or differently bound session.
    func bindDPoP(sessionID: String, jkt: String) async throws -> String? {
        try await driver.transaction { db in
            try await db.raw(
                """
                UPDATE sessions SET dpop_jkt = COALESCE(dpop_jkt, \(bind: jkt)) WHERE id = \(bind: sessionID)
                RETURNING dpop_jkt
                """
            ).first().flatMap { try $0.optionalString("dpop_jkt") }
        }
    }

    /// Deletes proofs past their window (inside ``pruneExpired(now:revokedRetention:)``).
    static func pruneDPoPProofs(before now: Date, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM dpop_proofs WHERE expires_at <= \(bind: now.stored)").run()
    }
}
