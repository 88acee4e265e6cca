import Foundation
import SQLKit
import SessionCore

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

    /// Stores `key` as the signing key, keeps the key that was signing for
    /// verification, and retires every other active key, in one transaction.
    ///
    /// "The key that was signing" is read here, under the keys' lock, never
    /// taken from a replica's memory: a replica with a stale list would
    /// otherwise retire the real current key and every token it signed.
    ///
    /// - Returns: the kid kept for verification, if any.
    @discardableResult
    func rotateSigningKey(_ key: StoredSigningKey, now: Date, actor: String = "operator", ip: String? = nil) async throws
        -> String?
    {
        let flavor = driver.flavor
        return try await driver.transaction { db in
            try await Self.lockKeys(on: db, flavor: flavor)
            let previous = try await Self.signingKid(on: db)
            try await db.raw(
                """
                INSERT INTO signing_keys (kid, private_key_pem, created_at, generation)
                SELECT \(bind: key.kid), \(bind: key.privateKeyPEM), \(bind: key.createdAt.stored),
                COALESCE(MAX(generation), 0) + 1 FROM signing_keys
                """
            ).run()
            let kept = [key.kid] + (previous.map { [$0] } ?? [])
            try await db.raw(
                """
                UPDATE signing_keys SET retired_at = \(bind: now.stored)
                WHERE retired_at IS NULL AND kid NOT IN (\(binds: kept))
                """
            ).run()
            try await Self.insertAudit(
                actor: actor, action: "key_rotated", target: key.kid, ip: ip,
                details: previous.map { ["previous": .string($0)] } ?? [:], now: now, on: db)
            return previous
        }
    }

    /// Retires one key that only verifies.
    ///
    /// - Returns: `false` when it was already retired.
    /// - Throws: ``KeyManagementError`` for an unknown kid or the signing key.
    func retireSigningKey(kid: String, now: Date, actor: String = "operator", ip: String? = nil) async throws -> Bool {
        let flavor = driver.flavor
        return try await driver.transaction { db in
            try await Self.lockKeys(on: db, flavor: flavor)
            guard let row = try await db.raw("SELECT retired_at FROM signing_keys WHERE kid = \(bind: kid)").first() else {
                throw KeyManagementError.unknownKey(kid)
            }
            if try row.optionalDate("retired_at") != nil { return false }
            guard try await Self.signingKid(on: db) != kid else { throw KeyManagementError.signingKey(kid) }
            try await db.raw(
                "UPDATE signing_keys SET retired_at = \(bind: now.stored) WHERE kid = \(bind: kid)"
            ).run()
            try await Self.insertAudit(
                actor: actor, action: "key_retired", target: kid, ip: ip, details: [:], now: now, on: db)
            return true
        }
    }

    /// Every key, newest first, with its state; private keys are not read.
    public func signingKeyList() async throws -> [SigningKeyInfo] {
        let rows = try await driver.transaction { db in
            try await db.raw(
                "SELECT kid, created_at, retired_at, generation FROM signing_keys ORDER BY generation DESC"
            ).all()
        }
        var signingSeen = false
        return try rows.map { row in
            let retiredAt = try row.optionalDate("retired_at")
            let state: SigningKeyInfo.State
            if retiredAt != nil {
                state = .retired
            } else if !signingSeen {
                signingSeen = true
                state = .signing
            } else {
                state = .verifying
            }
            return SigningKeyInfo(
                kid: try row.string("kid"), generation: try row.decode(column: "generation", as: Int.self), createdAt: try row.date("created_at"),
                retiredAt: retiredAt, state: state)
        }
    }

    /// The key that signs: the active key with the highest generation.
    private static func signingKid(on db: any SQLDatabase) async throws -> String? {
        try await db.raw(
            "SELECT kid FROM signing_keys WHERE retired_at IS NULL ORDER BY generation DESC LIMIT 1"
        ).first().map { try $0.string("kid") }
    }

    /// Serializes key changes across replicas: an advisory lock on
    /// PostgreSQL (keyed by the schema in use, like the migrations' lock,
    /// Migrations.lockStatement), SQLite's single writer otherwise.
    private static func lockKeys(on db: any SQLDatabase, flavor: SQLFlavor) async throws {
        guard flavor == .postgres else { return }
        try await db.raw("SELECT pg_advisory_xact_lock(hashtext('sessionkit-keys:' || current_schema()))").run()
    }

    /// Stores `candidate` only if no key is active yet, atomically across
    /// replicas (an advisory lock on PostgreSQL, the single writer on SQLite),
    /// so two servers starting on a fresh database agree on one key.
    func insertFirstSigningKey(_ candidate: StoredSigningKey) async throws {
        let flavor = driver.flavor
        try await driver.transaction { db in
            try await Self.lockKeys(on: db, flavor: flavor)
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
