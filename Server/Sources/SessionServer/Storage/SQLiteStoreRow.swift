import Foundation
import SQLiteKit

/// A row from the store's SQLite connection (``SQLiteStoreDatabase``), readable
/// without SQLKit's generic decoding.
///
/// SQLiteKit's own row reads a column through `SQLiteDataDecoder`: a protocol
/// conformance lookup, an existential and two dynamic casts per column, and a
/// nullable column is looked up twice (`decodeNil`, then `decode`). A rotation
/// reads about forty columns; the typed readers below look each up once and
/// switch on the stored value (docs/BENCHMARKS.md, "Item 4: the request path's
/// misses"). They convert exactly as `SQLiteDataDecoder` does for `String`,
/// `Double` and `Int`, so a row reads the same through either; every other type
/// still goes through SQLiteKit's decoder.
///
/// A class, not a struct: the readers of SQLRow+Columns.swift find it with one
/// cast a column, and a class reference casts and copies as one pointer.
final class SQLiteStoreRow: SQLRow {
    let row: SQLiteRow
    let decoder: SQLiteDataDecoder

    init(row: SQLiteRow, decoder: SQLiteDataDecoder) {
        self.row = row
        self.decoder = decoder
    }

    var allColumns: [String] { row.columns.map(\.name) }

    func contains(column: String) -> Bool { row.column(column) != nil }

    /// As SQLiteKit's: a missing column reads as NULL.
    func decodeNil(column: String) throws -> Bool {
        guard let data = row.column(column) else { return true }
        return data.isNull
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let data = row.column(column) else { throw StoredColumnError.missingColumn(column) }
        return try decoder.decode(D.self, from: data)
    }

    /// `decode(column:as: String.self)`: text as is, a number as its decimal text.
    func string(_ column: String) throws -> String {
        guard let data = row.column(column) else { throw StoredColumnError.missingColumn(column) }
        return try Self.string(data, column: column)
    }

    /// `nil` for NULL or a missing column, as `decodeNil` then `decode` read it.
    func optionalString(_ column: String) throws -> String? {
        guard let data = row.column(column), !data.isNull else { return nil }
        return try Self.string(data, column: column)
    }

    /// `decode(column:as: Double.self)`: a float, or an integer widened; never text.
    func double(_ column: String) throws -> Double {
        guard let data = row.column(column) else { throw StoredColumnError.missingColumn(column) }
        return try Self.double(data, column: column)
    }

    /// `nil` for NULL or a missing column.
    func optionalDouble(_ column: String) throws -> Double? {
        guard let data = row.column(column), !data.isNull else { return nil }
        return try Self.double(data, column: column)
    }

    /// `decode(column:as: Int64.self)`: an integer only (SQLiteKit converts neither floats nor text).
    func int64(_ column: String) throws -> Int64 {
        guard let data = row.column(column) else { throw StoredColumnError.missingColumn(column) }
        guard case .integer(let value) = data else {
            throw StoredColumnError.typeMismatch(column: column, expected: "an integer", found: Self.kind(data))
        }
        return Int64(value)
    }

    /// `nil` for NULL or a missing column.
    func optionalInt64(_ column: String) throws -> Int64? {
        guard let data = row.column(column), !data.isNull else { return nil }
        guard case .integer(let value) = data else {
            throw StoredColumnError.typeMismatch(column: column, expected: "an integer", found: Self.kind(data))
        }
        return Int64(value)
    }

    private static func string(_ data: SQLiteData, column: String) throws -> String {
        switch data {
        case .text(let text): return text
        case .integer(let value): return String(value)
        case .float(let value): return String(value)
        case .blob, .null: throw StoredColumnError.typeMismatch(column: column, expected: "text", found: kind(data))
        }
    }

    private static func double(_ data: SQLiteData, column: String) throws -> Double {
        switch data {
        case .float(let value): return value
        case .integer(let value): return Double(value)
        case .text, .blob, .null: throw StoredColumnError.typeMismatch(column: column, expected: "a number", found: kind(data))
        }
    }

    /// The kind of a stored value, for an error; never the value.
    private static func kind(_ data: SQLiteData) -> String {
        switch data {
        case .integer: "an integer"
        case .float: "a float"
        case .text: "text"
        case .blob: "a blob"
        case .null: "NULL"
        }
    }
}
