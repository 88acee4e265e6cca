import Foundation
import SQLKit

extension AuthStore {
    /// Gives the live `session` a new refresh token in place: the same session
    /// id and the same refresh family, the active token rotated out.
    ///
    /// A factor verify (docs/MFA.md, "The session after verify") and the final
    /// email-change verify that carries the session's own bearer
    /// (docs/ACCOUNTS.md, "The same-session contract") both answer with the
    /// session they changed instead of a new one, and both swap its token so.
    ///
    /// Like any rotation, the token of before gets this successor again within
    /// the reuse grace (a client that lost the answer retries with what it
    /// saved), and past the grace it is a reuse. The server never held that
    /// token's plaintext here, so the successor is sealed under the KEK, bound
    /// to the parent's hash, instead of under the parent; rotation opens it
    /// (AuthStore+Rotation.swift) and never recovers it past the grace.
    ///
    /// Call it inside the transaction that holds the session row (`FOR UPDATE`).
    ///
    /// - Returns: the new refresh token; `session` carries its hash and `refreshed_at`.
    static func swapRefreshToken(
        of session: inout SessionRecord, refreshTokenTTL: TimeInterval, kek: KeyEncryptionKey, now: Date,
        on db: any SQLDatabase
    ) async throws -> String {
        let token = RefreshTokenCodec.generate()
        let tokenHash = RefreshTokenCodec.hash(token)
        try await insertRefreshToken(
            RefreshTokenRecord(
                tokenHash: tokenHash, sessionID: session.id, parentHash: session.activeTokenHash, createdAt: now,
                expiresAt: min(now.addingTimeInterval(refreshTokenTTL), session.notAfter)),
            on: db)
        if let previous = session.activeTokenHash {
            let sealed = try kek.seal(pem: token, kid: RefreshTokenCodec.verifySuccessorBinding(parentHash: previous))
            try await db.raw(
                """
                UPDATE refresh_tokens SET rotated_at = \(bind: now.stored), successor_hash = \(bind: tokenHash),
                sealed_successor = \(bind: sealed) WHERE token_hash = \(bind: previous) AND rotated_at IS NULL
                """
            ).run()
        }
        try await db.raw(
            """
            UPDATE sessions SET refreshed_at = \(bind: now.stored), active_token_hash = \(bind: tokenHash)
            WHERE id = \(bind: session.id)
            """
        ).run()
        session.refreshedAt = now
        session.activeTokenHash = tokenHash
        return token
    }
}
