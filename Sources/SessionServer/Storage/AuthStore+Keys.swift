import Foundation
import SQLKit

extension AuthStore {
    /// Signing keys not retired, newest first.
    func activeSigningKeys() async throws -> [StoredSigningKey] {
        try await driver.transaction { db in
            try await db.raw(
                "SELECT * FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid DESC"
            ).all().map {
                StoredSigningKey(
                    kid: try $0.string("kid"), privateKeyPEM: try $0.string("private_key_pem"),
                    createdAt: try $0.date("created_at"))
            }
        }
    }

    /// Stores a new key; when `retireOthersBut` is given, retires every other
    /// key except those kids (rotation keeps the previous key for verification).
    func insertSigningKey(_ key: StoredSigningKey, retireOthersBut keep: [String]?, now: Date) async throws {
        try await driver.transaction { db in
            try await db.raw(
                """
                INSERT INTO signing_keys (kid, private_key_pem, created_at)
                VALUES (\(bind: key.kid), \(bind: key.privateKeyPEM), \(bind: key.createdAt.stored))
                """
            ).run()
            if let keep {
                let kept = keep + [key.kid]
                try await db.raw(
                    """
                    UPDATE signing_keys SET retired_at = \(bind: now.stored)
                    WHERE retired_at IS NULL AND kid NOT IN (\(binds: kept))
                    """
                ).run()
            }
        }
    }
}
