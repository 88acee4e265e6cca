import Foundation
import SQLKit
import SessionCore

/// The audit log: sign-ins, sign-outs, detected token reuse, bans, deletions,
/// key changes and admin actions, with who, when and from where
/// (docs/ADMIN.md). It never holds a token or a password.
extension AuthStore {
    /// One thing that happened.
    public struct AuditEntry: Sendable, Hashable {
        public var id: String
        public var createdAt: Date
        /// Who did it: a user id, `service_role`, `operator` (the CLI) or `system`.
        public var actor: String
        /// `login`, `logout`, `token_reuse_detected`, `user_created`, `user_updated`,
        /// `user_banned`, `user_deleted`, `user_signed_out`, `link_generated`, `key_rotated`, `key_retired`.
        public var action: String
        /// What it was done to (a user or a key id), if anything.
        public var target: String?
        public var ip: String?
        public var details: [String: JSONValue]
    }

    /// Appends an entry in its own transaction.
    public func audit(
        actor: String, action: String, target: String? = nil, ip: String? = nil, details: [String: JSONValue] = [:],
        now: Date
    ) async throws {
        try await driver.transaction { db in
            try await Self.insertAudit(actor: actor, action: action, target: target, ip: ip, details: details, now: now, on: db)
        }
    }

    /// Appends an entry inside the caller's transaction, so it commits (or not) with what it records.
    static func insertAudit(
        actor: String, action: String, target: String?, ip: String?, details: [String: JSONValue], now: Date,
        on db: any SQLDatabase
    ) async throws {
        try await db.raw(
            """
            INSERT INTO audit_log (id, created_at, actor, action, target, ip, details)
            VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: now.stored), \(bind: actor), \(bind: action),
            \(bind: target), \(bind: ip), \(bind: try encodeMetadata(details)))
            """
        ).run()
    }

    /// A page of the log, newest first, and how many entries there are.
    public func auditLog(page: Int, perPage: Int) async throws -> (entries: [AuditEntry], total: Int) {
        try await driver.transaction { db in
            let total = try await db.raw("SELECT COUNT(*) AS n FROM audit_log").first()?.decode(column: "n", as: Int.self) ?? 0
            let rows = try await db.raw(
                """
                SELECT * FROM audit_log ORDER BY created_at DESC, id LIMIT \(bind: perPage) OFFSET \(bind: (page - 1) * perPage)
                """
            ).all()
            let entries = try rows.map { row in
                AuditEntry(
                    id: try row.string("id"), createdAt: try row.date("created_at"), actor: try row.string("actor"),
                    action: try row.string("action"), target: try row.optionalString("target"),
                    ip: try row.optionalString("ip"), details: try Self.decodeMetadata(row.string("details")))
            }
            return (entries, total)
        }
    }
}

/// Who made a change and from where, for an audit entry written in the
/// change's own transaction.
public struct AuditActor: Sendable {
    public var actor: String
    public var ip: String?
    public var details: [String: JSONValue]
    public var now: Date

    public init(actor: String, ip: String?, details: [String: JSONValue] = [:], now: Date) {
        self.actor = actor
        self.ip = ip
        self.details = details
        self.now = now
    }
}
