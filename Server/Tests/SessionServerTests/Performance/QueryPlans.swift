import Foundation
import SQLKit
@testable import SessionServer

/// Asks the database how it would run each captured statement and names the
/// full table scans (issue 44, item 3; docs/BENCHMARKS.md, "Round 3").
///
/// SQLite: `EXPLAIN QUERY PLAN`, where `SCAN <table>` reads every row (an
/// index lookup reads `SEARCH <table> USING ...`). PostgreSQL: the generic
/// plan of the prepared statement (`plan_cache_mode = force_generic_plan`,
/// so the plan cannot lean on the NULLs `EXECUTE` passes), where
/// `Seq Scan on <table>` reads every row. PostgreSQL plans by cost, so only
/// the tables ``QueryPlanFixture`` filled are judged there: on a table of a
/// few rows a sequential scan is the right plan, and SQLite's check, which
/// judges every table, covers those.
enum QueryPlans {
    struct Scan: CustomStringConvertible {
        let path: String
        let table: String
        let statement: String
        let plan: String
        var description: String { "\(path): full scan of \(table) in `\(statement)`\n\(plan)" }
    }

    static func fullScans(_ paths: [(String, [String])], store: AuthStore) async throws -> [Scan] {
        let tables = try await tableNames(store)
        var scans: [Scan] = []
        for (path, statements) in paths {
            var seen: Set<String> = []
            for statement in statements where seen.insert(statement).inserted && explainable(statement) {
                let plan = try await plan(of: statement, store: store)
                for table in scannedTables(plan, flavor: store.flavor) where tables.contains(table) {
                    if store.flavor == .postgres && !QueryPlanFixture.grownTables.contains(table) { continue }
                    scans.append(Scan(path: path, table: table, statement: statement, plan: plan.joined(separator: "\n")))
                }
            }
        }
        return scans
    }

    /// Statements that read a table: an `INSERT ... VALUES` or a `BEGIN` cannot scan one.
    static func explainable(_ statement: String) -> Bool {
        let text = statement.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        if ["SELECT", "UPDATE", "DELETE", "WITH"].contains(where: { text.hasPrefix($0) }) {
            return !text.hasPrefix("SELECT PG_ADVISORY")
        }
        return text.hasPrefix("INSERT") && text.contains("SELECT")
    }

    static func plan(of statement: String, store: AuthStore) async throws -> [String] {
        if store.flavor == .sqlite {
            return try await store.withTransaction { db in
                try await db.raw("EXPLAIN QUERY PLAN \(unsafeRaw: statement)").all().map { try $0.decode(column: "detail", as: String.self) }
            }
        }
        let parameters = parameterCount(statement)
        let arguments = parameters == 0 ? "" : "(" + Array(repeating: "NULL", count: parameters).joined(separator: ", ") + ")"
        return try await store.withTransaction { db in
            try await db.raw("SET LOCAL plan_cache_mode = force_generic_plan").run()
            try await db.raw("PREPARE sessionkit_plan AS \(unsafeRaw: statement)").run()
            let rows = try await db.raw("EXPLAIN EXECUTE sessionkit_plan\(unsafeRaw: arguments)").all()
            try await db.raw("DEALLOCATE sessionkit_plan").run()
            return try rows.map { try $0.decode(column: "QUERY PLAN", as: String.self) }
        }
    }

    /// The highest `$n` in a PostgreSQL statement.
    static func parameterCount(_ statement: String) -> Int {
        let pattern = try! NSRegularExpression(pattern: #"\$([0-9]+)"#)
        let range = NSRange(statement.startIndex..., in: statement)
        return pattern.matches(in: statement, range: range).compactMap { match in
            Range(match.range(at: 1), in: statement).flatMap { Int(statement[$0]) }
        }.max() ?? 0
    }

    /// The tables a plan reads in full.
    static func scannedTables(_ plan: [String], flavor: SQLFlavor) -> [String] {
        plan.compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            if flavor == .postgres {
                guard let range = text.range(of: "Seq Scan on ") else { return nil }
                return text[range.upperBound...].split(separator: " ").first.map(String.init)
            }
            // "SCAN sessions", or "SCAN TABLE sessions" before SQLite 3.36.
            guard text.hasPrefix("SCAN ") else { return nil }
            let words = text.dropFirst(5).split(separator: " ")
            let name = words.first == "TABLE" ? words.dropFirst().first : words.first
            return name.map(String.init)
        }
    }

    static func tableNames(_ store: AuthStore) async throws -> Set<String> {
        let query: SQLQueryString =
            store.flavor == .sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'table'"
            : "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()"
        return try await store.withTransaction { db in
            Set(try await db.raw(query).all().map { try $0.decode(column: "name", as: String.self) })
        }
    }
}
