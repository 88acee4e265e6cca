import Foundation
import SQLKit

extension SQLRow {
    /// A non-null string column.
    func string(_ column: String) throws -> String { try decode(column: column, as: String.self) }

    /// A nullable string column.
    func optionalString(_ column: String) throws -> String? {
        try decodeNil(column: column) ? nil : decode(column: column, as: String.self)
    }

    /// A non-null timestamp column (Unix seconds).
    func date(_ column: String) throws -> Date {
        Date(timeIntervalSince1970: try decode(column: column, as: Double.self))
    }

    /// A nullable timestamp column (Unix seconds).
    func optionalDate(_ column: String) throws -> Date? {
        try decodeNil(column: column) ? nil : date(column)
    }
}

extension Date {
    /// The stored form of a timestamp.
    var stored: Double { timeIntervalSince1970 }
}
