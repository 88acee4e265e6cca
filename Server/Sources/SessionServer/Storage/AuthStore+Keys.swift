import Foundation
import SQLKit

extension AuthStore {
    /// Signing keys not retired, newest first (by generation: wall time can stand still or step back).
    func activeSigningKeys() async throws -> [StoredSigningKey] {
        try await driver.transaction { db in
            try await db.raw(
                "SELECT * FROM signing_keys WHERE retired_at IS NULL ORDER BY generation DESC"
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
                INSERT INTO signing_keys (kid, private_key_pem, created_at, generation)
                SELECT \(bind: key.kid), \(bind: key.privateKeyPEM), \(bind: key.createdAt.stored),
                COALESCE(MAX(generation), 0) + 1 FROM signing_keys
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

    /// Stores `candidate` only if no key is active yet, atomically across
    /// replicas (an advisory lock on PostgreSQL, the single writer on SQLite),
    /// so two servers starting on a fresh database agree on one key.
    func insertFirstSigningKey(_ candidate: StoredSigningKey) async throws {
        let flavor = driver.flavor
        try await driver.transaction { db in
            if flavor == .postgres {
                // Keyed by the schema in use, like the migrations' lock (Migrations.lockStatement).
                try await db.raw("SELECT pg_advisory_xact_lock(hashtext('sessionkit-keys:' || current_schema()))").run()
            }
            let existing = try await db.raw("SELECT kid FROM signing_keys WHERE retired_at IS NULL").first()
            guard existing == nil else { return }
            try await db.raw(
                """
                INSERT INTO signing_keys (kid, private_key_pem, created_at, generation)
                VALUES (\(bind: candidate.kid), \(bind: candidate.privateKeyPEM), \(bind: candidate.createdAt.stored), 1)
                """
            ).run()
        }
    }

    /// Every key's stored value (sealed or, from older servers, a plaintext PEM), retired ones included.
    func signingKeyValues() async throws -> [(kid: String, value: String)] {
        try await driver.transaction { db in
            try await db.raw("SELECT kid, private_key_pem FROM signing_keys ORDER BY generation").all().map {
                (kid: try $0.string("kid"), value: try $0.string("private_key_pem"))
            }
        }
    }

    /// Replaces a key's stored value if it is still `old`.
    ///
    /// - Returns: `false` when another server changed it first.
    func replaceSigningKeyValue(kid: String, from old: String, to new: String) async throws -> Bool {
        try await driver.transaction { db in
            try await db.raw(
                """
                UPDATE signing_keys SET private_key_pem = \(bind: new)
                WHERE kid = \(bind: kid) AND private_key_pem = \(bind: old) RETURNING kid
                """
            ).first() != nil
        }
    }
}
