import HTTPTypes
import Foundation
import SessionServer
import Testing

/// The databases the store suite runs against.
///
/// PostgreSQL joins when `SESSIONKIT_TEST_POSTGRES_URL` is set (`eval "$(bash
/// .ci/postgres.sh)"` sets it); otherwise its tests are skipped with that
/// reason printed, never silently.
enum TestDatabase: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static let postgresURL: String? = {
        let url = ProcessInfo.processInfo.environment["SESSIONKIT_TEST_POSTGRES_URL"]
        if url == nil || url?.isEmpty == true {
            print("⚠️ SESSIONKIT_TEST_POSTGRES_URL is not set: PostgreSQL tests are skipped (run `eval \"$(bash .ci/postgres.sh)\"`).")
            return nil
        }
        return url
    }()

    /// Every database available in this run.
    static var all: [TestDatabase] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// A fresh, empty location: in-memory SQLite, or a new schema on PostgreSQL.
    func freshLocation() -> DatabaseLocation {
        switch self {
        case .sqlite: return .sqliteInMemory
        case .postgres: return Self.postgresLocation(schema: Self.freshSchemaName())
        }
    }

    static func freshSchemaName() -> String {
        "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    }

    static func postgresLocation(schema: String) -> DatabaseLocation {
        let base = postgresURL ?? ""
        let separator = base.contains("?") ? "&" : "?"
        return .postgres(url: base + separator + "schema=" + schema)
    }
}
