import Foundation
import NIOCore
import SQLiteKit
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 44, item 4: the store's SQLite rows (``SQLiteStoreRow``) read every
/// stored value as SQLiteKit's own row did, over generated rows with NULLs,
/// missing columns and values of the wrong kind; and a row written outside the
/// server gives a typed error that names the column, never the value.
struct SQLiteStoreRowTests {
    /// Every kind of value SQLite stores, with the odd ones a hand-edited or foreign database can hold.
    static let oddValues: [SQLiteData] = [
        .null, .integer(0), .integer(1), .integer(-7), .integer(.max), .integer(.min), .float(0), .float(-0.0),
        .float(1.5), .float(1_700_000_000.123456), .float(-1e300), .float(.infinity), .text(""), .text("abc"),
        .text("12"), .text("1.5"), .text("{}"), .text(#"{"plan":"pro"}"#), .text("[1]"), .text("é🙂\u{0}x"),
        .blob(ByteBuffer(bytes: [0, 1, 2])), .blob(ByteBuffer()),
    ]

    enum Kind { case text, number, integer, json }

    static let user: [(String, Kind)] = [
        ("id", .text), ("email", .text), ("password_hash", .text), ("user_metadata", .json), ("created_at", .number),
        ("updated_at", .number), ("last_sign_in_at", .number), ("email_confirmed_at", .number), ("banned_until", .number),
        ("app_metadata", .json), ("is_anonymous", .integer), ("email_change", .text), ("email_change_sent_at", .number),
    ]
    static let session: [(String, Kind)] = [
        ("id", .text), ("user_id", .text), ("created_at", .number), ("refreshed_at", .number), ("not_after", .number),
        ("revoked_at", .number), ("revoked_reason", .text), ("user_agent", .text), ("ip", .text),
        ("active_token_hash", .text), ("auth_method", .text), ("aal", .text), ("mfa_verified_at", .number),
        ("factor_id", .text), ("dpop_jkt", .text),
    ]
    static let refreshToken: [(String, Kind)] = [
        ("token_hash", .text), ("session_id", .text), ("parent_hash", .text), ("created_at", .number),
        ("expires_at", .number), ("rotated_at", .number), ("successor_hash", .text), ("sealed_successor", .text),
        ("recovered_at", .number), ("recoveries", .integer),
    ]
    static let identity: [(String, Kind)] = [
        ("id", .text), ("user_id", .text), ("provider", .text), ("provider_id", .text), ("identity_data", .json),
        ("email", .text), ("created_at", .number), ("updated_at", .number), ("last_sign_in_at", .number),
    ]
    static let factor: [(String, Kind)] = [
        ("id", .text), ("user_id", .text), ("friendly_name", .text), ("factor_type", .text), ("status", .text),
        ("secret", .text), ("created_at", .number), ("updated_at", .number), ("last_challenged_at", .number),
        ("last_step", .integer),
    ]

    @Test func everyColumnReaderReadsWhatSQLiteKitRead() async throws {
        try await Self.withConnection { connection in
            for value in Self.oddValues {
                let rows = try await connection.query("SELECT ? AS present", [value])
                let row = try #require(rows.first)
                // Both through the readers the decoders call (SQLRow+Columns.swift): SQLiteKit's row, then the store's.
                let (old, new): (any SQLRow, any SQLRow) = (row.sql(), SQLiteStoreRow(row: row, decoder: SQLiteDataDecoder()))
                for column in ["present", "absent"] {
                    let label = "\(value) in \(column)"
                    Self.compare(label + " string", old: { try old.string(column) }, new: { try new.string(column) })
                    Self.compare(label + " optionalString", old: { try old.optionalString(column) }, new: { try new.optionalString(column) })
                    Self.compare(label + " date", old: { try old.date(column) }, new: { try new.date(column) })
                    Self.compare(label + " optionalDate", old: { try old.optionalDate(column) }, new: { try new.optionalDate(column) })
                    Self.compare(label + " int", old: { try old.int(column) }, new: { try new.int(column) })
                    Self.compare(label + " optionalInt64", old: { try old.optionalInt64(column) }, new: { try new.optionalInt64(column) })
                    Self.compare(label + " decodeNil", old: { try old.decodeNil(column: column) }, new: { try new.decodeNil(column: column) })
                    // Any other type goes through SQLiteKit's decoder on both rows. (Not Bool here: SQLiteNIO's
                    // Bool conversion traps on a float past Int's range, on either row; the store reads no Bool.)
                    Self.compare(
                        label + " decode(String)", old: { try old.decode(column: column, as: String.self) },
                        new: { try new.decode(column: column, as: String.self) })
                }
            }
        }
    }

    @Test func generatedRowsDecodeToTheSameRecords() async throws {
        var generator = Seeded(seed: 44)
        var outcomes = (decoded: 0, refused: 0)
        try await Self.withConnection { connection in
            for _ in 0..<150 {
                for (columns, decode) in Self.decoders {
                    let row = try await Self.generatedRow(columns, on: connection, using: &generator)
                    let (old, new): (any SQLRow, any SQLRow) = (row.sql(), SQLiteStoreRow(row: row, decoder: SQLiteDataDecoder()))
                    let decoded = Self.compare("\(row)", old: { try decode(old) }, new: { try decode(new) })
                    if decoded { outcomes.decoded += 1 } else { outcomes.refused += 1 }
                }
            }
        }
        // Both halves were exercised: rows that read and rows refused.
        #expect(outcomes.decoded > 100 && outcomes.refused > 100, "\(outcomes)")
    }

    @Test func aRowWrittenOutsideGivesATypedErrorWithoutItsValue() async throws {
        let test = try await TestServer.make(.sqlite)
        try await test.run { _ in
            let store = test.server.store
            let now = test.clock.now
            let user = try await store.createUser(email: "ada@example.com", passwordHash: "unused", metadata: [:], now: now)
            let (session, token) = try await store.createSession(
                userID: user.id, userAgent: "test", ip: "127.0.0.1", now: now, refreshTokenTTL: 3600, absoluteTTL: 86_400)
            try await store.withTransaction { db in
                try await db.raw("UPDATE sessions SET not_after = 'hunter2-secret' WHERE id = \(bind: session.id)").run()
            }
            do {
                _ = try await store.rotate(
                    refreshToken: token, now: now.addingTimeInterval(1), policy: RotationPolicy(refreshTokenTTL: 3600, grace: 10))
                Issue.record("a session whose not_after is text rotated")
            } catch let error as StoredColumnError {
                #expect(error.column == "not_after")
                #expect(!error.description.contains("hunter2"), "\(error)")
            }
        }
    }

    // MARK: - Fixtures

    static let decoders: [([(String, Kind)], @Sendable (any SQLRow) throws -> AnyHashable)] = [
        (user, { AnyHashable(try AuthStore.user(from: $0)) }),
        (session, { AnyHashable(try AuthStore.session(from: $0)) }),
        (refreshToken, { AnyHashable(try AuthStore.refreshToken(from: $0)) }),
        (identity, { AnyHashable(try AuthStore.identity(from: $0)) }),
        (factor, { AnyHashable(try AuthStore.factor(from: $0)) }),
    ]

    /// Both succeed with equal values, or both fail; the new reader's own error is typed.
    @discardableResult
    static func compare<T: Equatable>(_ label: String, old: () throws -> T, new: () throws -> T) -> Bool {
        switch (Result { try old() }, Result { try new() }) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(label): SQLiteKit read \(a), the store's row \(b)")
            return true
        case (.failure(let a), .failure(let b)):
            if !(b is StoredColumnError) {
                #expect(String(describing: a) == String(describing: b), "\(label)")
            }
            return false
        case (let a, let b):
            Issue.record("\(label): SQLiteKit read \(a), the store's row \(b)")
            return false
        }
    }

    /// One row with each column usually a plausible value of its kind (NULL among them),
    /// sometimes any odd value, sometimes left out.
    static func generatedRow(
        _ columns: [(String, Kind)], on connection: SQLiteConnection, using generator: inout Seeded
    ) async throws -> SQLiteRow {
        var names: [String] = []
        var values: [SQLiteData] = []
        for (name, kind) in columns {
            let roll = Int.random(in: 0..<100, using: &generator)
            if roll < 3 { continue }
            names.append(name)
            if roll < 20 {
                values.append(oddValues.randomElement(using: &generator)!)
            } else if roll < 30 {
                values.append(.null)
            } else {
                values.append(plausible(kind, using: &generator))
            }
        }
        let select = names.isEmpty ? "SELECT 1 AS nothing" : "SELECT " + names.map { "? AS \($0)" }.joined(separator: ", ")
        return try #require(try await connection.query(select, values).first)
    }

    static func plausible(_ kind: Kind, using generator: inout Seeded) -> SQLiteData {
        switch kind {
        case .text: .text("v\(Int.random(in: 0..<1000, using: &generator))")
        case .number:
            Bool.random(using: &generator)
                ? .float(1_700_000_000 + Double.random(in: 0..<1, using: &generator))
                : .integer(Int.random(in: 1_600_000_000..<1_800_000_000, using: &generator))
        case .integer: .integer(Int.random(in: 0..<4, using: &generator))
        case .json: .text(Bool.random(using: &generator) ? "{}" : #"{"plan":"pro","n":2}"#)
        }
    }

    static func withConnection(_ body: (SQLiteConnection) async throws -> Void) async throws {
        let connection = try await SQLiteConnection.open(storage: .memory)
        do {
            try await body(connection)
        } catch {
            try await connection.close()
            throw error
        }
        try await connection.close()
    }
}

extension SQLiteStoreRowTests {
    /// SplitMix64, seeded: the same rows on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
