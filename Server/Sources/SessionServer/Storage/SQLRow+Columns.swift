import Foundation
import SQLKit

/// The typed column readers every record decoder uses. On SQLite they read
/// ``SQLiteStoreRow``'s values directly (one lookup, no generic decoding); on
/// PostgreSQL, through SQLKit's `decodeNil` and `decode(column:as:)` as before.
extension SQLRow {
    /// A non-null string column.
    func string(_ column: String) throws -> String {
        if let row = self as? SQLiteStoreRow { return try row.string(column) }
        return try decode(column: column, as: String.self)
    }

    /// A nullable string column.
    func optionalString(_ column: String) throws -> String? {
        if let row = self as? SQLiteStoreRow { return try row.optionalString(column) }
        return try decodeNil(column: column) ? nil : decode(column: column, as: String.self)
    }

    /// A non-null timestamp column (Unix seconds).
    func date(_ column: String) throws -> Date {
        if let row = self as? SQLiteStoreRow { return Date(timeIntervalSince1970: try row.double(column)) }
        return Date(timeIntervalSince1970: try decode(column: column, as: Double.self))
    }

    /// A nullable timestamp column (Unix seconds).
    func optionalDate(_ column: String) throws -> Date? {
        if let row = self as? SQLiteStoreRow { return try row.optionalDouble(column).map(Date.init(timeIntervalSince1970:)) }
        return try decodeNil(column: column) ? nil : Date(timeIntervalSince1970: try decode(column: column, as: Double.self))
    }

    /// A non-null integer column.
    func int(_ column: String) throws -> Int {
        if let row = self as? SQLiteStoreRow { return Int(try row.int64(column)) }
        return try decode(column: column, as: Int.self)
    }

    /// A nullable 64-bit integer column.
    func optionalInt64(_ column: String) throws -> Int64? {
        if let row = self as? SQLiteStoreRow { return try row.optionalInt64(column) }
        return try decodeNil(column: column) ? nil : decode(column: column, as: Int64.self)
    }
}

extension Date {
    /// The stored form of a timestamp.
    var stored: Double { timeIntervalSince1970 }
}
