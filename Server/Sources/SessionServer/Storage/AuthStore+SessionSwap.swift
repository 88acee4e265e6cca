import Foundation
import SQLKit

extension AuthStore {
    /// Gives `session` a new refresh token in place, inside the caller's
    /// transaction: the session keeps its id and refresh family, and its
    /// active token is rotated out as a rotation does. One rule for every
    /// change that must not start a second session: a factor verify, a
    /// linked identity (docs/ACCOUNTS.md, "Linked identities (server)") and
    /// the final email-change verify that carries the session's own bearer
    /// (docs/ACCOUNTS.md, "The same-session contract").
    ///
    /// Like any rotation, the token of before gets this successor again within
    /// the reuse grace (a client that lost the answer retries with what it
    /// saved), and past the grace it is a reuse. The server never held that
    /// token's plaintext here, so the successor is sealed under the KEK, bound
    /// to the parent's hash, instead of under the parent (docs/MFA.md, "The session after verify").
    ///
    /// - Parameters:
    ///   - session: a live session row the caller holds locked; its `refreshedAt`
    ///     and `activeTokenHash` are updated.
    ///   - refreshTokenTTL: the new token's lifetime, capped at the session's `notAfter`.
    ///   - kek: seals the new token for the grace of the one it replaces.
    /// - Returns: the new refresh token, to answer once and never store.
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
