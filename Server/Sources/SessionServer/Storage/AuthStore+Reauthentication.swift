import Foundation
import SQLKit

/// Re-authentication nonces: the six digits `POST /reauthenticate` mails,
/// presented as `nonce` with a sensitive change (docs/EMAIL.md,
/// "Re-authentication"). They live in `one_time_tokens` beside the sign-in
/// and reset codes, under their own purpose, so `/verify` never redeems one
/// and one never signs anybody in: a nonce proves presence, nothing more.
extension AuthStore {
    /// Spends the account's outstanding nonce if `nonce` is it.
    ///
    /// A wrong nonce counts against the row (after `maximumAttempts` it is
    /// gone); an expired row is deleted. The row is read and deleted in one
    /// transaction, so a nonce proves presence at most once.
    ///
    /// - Returns: `false` for every refusal (none outstanding, wrong, expired, used).
    func consumeReauthenticationNonce(email: String, nonce: String, now: Date, maximumAttempts: Int) async throws -> Bool {
        let forUpdate = driver.flavor.forUpdate
        let purpose = OneTimeTokenPurpose.reauthentication.rawValue
        return try await driver.transaction { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT * FROM one_time_tokens WHERE email = \(bind: email) AND purpose = \(bind: purpose)\(unsafeRaw: forUpdate)
                    """
                ).first()
            else { return false }
            let id = try row.string("id")
            guard try row.date("expires_at") > now else {
                try await db.raw("DELETE FROM one_time_tokens WHERE id = \(bind: id)").run()
                return false
            }
            guard SHA256Hex.constantTimeEquals(Self.codeHash(id: id, code: nonce), try row.string("code_hash")) else {
                try await Self.countWrongGuess(row, maximumAttempts: maximumAttempts, on: db)
                return false
            }
            try await db.raw("DELETE FROM one_time_tokens WHERE id = \(bind: id)").run()
            return true
        }
    }
}
