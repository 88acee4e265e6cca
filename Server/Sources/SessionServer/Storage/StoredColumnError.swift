/// A stored row that does not read as the schema says: a column missing, or a
/// value of another type than its column's (a database edited by hand, or
/// written by another program).
///
/// It names the column and the kind of value found, never the value: the
/// columns hold password hashes, refresh token hashes and sealed secrets.
struct StoredColumnError: Error, Sendable, CustomStringConvertible {
    private enum Code: Sendable { case missingColumn, typeMismatch }
    private let code: Code
    /// The column asked for.
    let column: String
    /// What was asked for and, for a mismatch, the kind of value stored.
    private let expected: String
    private let found: String

    /// The row has no column of that name: the schema is not the one the server migrated.
    static func missingColumn(_ column: String) -> StoredColumnError {
        StoredColumnError(code: .missingColumn, column: column, expected: "", found: "")
    }

    /// The column holds a value that does not convert to what the store reads there.
    static func typeMismatch(column: String, expected: String, found: String) -> StoredColumnError {
        StoredColumnError(code: .typeMismatch, column: column, expected: expected, found: found)
    }

    var isMissingColumn: Bool { code == .missingColumn }

    var description: String {
        switch code {
        case .missingColumn:
            "The stored row has no column `\(column)`: the database's schema is not this server's; run its migrations."
        case .typeMismatch:
            "The stored column `\(column)` holds \(found), not \(expected): the row was written outside this server; fix or delete it."
        }
    }
}
