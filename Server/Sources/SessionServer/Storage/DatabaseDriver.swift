import SQLKit

/// The SQL dialect differences the store cares about.
public enum SQLFlavor: Sendable {
    case sqlite, postgres

    /// Column type for timestamps (Unix seconds with fractions).
    var timestamp: String { self == .sqlite ? "REAL" : "DOUBLE PRECISION" }
    /// Column type for floating-point values.
    var double: String { self == .sqlite ? "REAL" : "DOUBLE PRECISION" }
    /// Column type for integers.
    var integer: String { self == .sqlite ? "INTEGER" : "BIGINT" }
    /// Suffix that locks selected rows until the transaction ends. SQLite
    /// needs none: its transactions start with `BEGIN IMMEDIATE` on the one
    /// writer connection, which already serializes them.
    var forUpdate: String { self == .sqlite ? "" : " FOR UPDATE" }
    /// Suffix that keeps a selected row from being deleted until the
    /// transaction ends, without blocking other readers or non-key updates.
    var forKeyShare: String { self == .sqlite ? "" : " FOR KEY SHARE" }
}

/// Runs transactions on one kind of database.
protocol DatabaseDriver: Sendable {
    var flavor: SQLFlavor { get }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T

    /// Runs `body`'s reads without a transaction: a lone SELECT is atomic by
    /// itself, and BEGIN and COMMIT are two of a cached read's four round trips.
    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T

    /// Keeps the driver's connections alive until graceful shutdown (run as a service).
    func run() async throws
}
