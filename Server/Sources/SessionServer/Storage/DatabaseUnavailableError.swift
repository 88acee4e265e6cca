import PostgresNIO

/// The database could not run a statement because it is unreachable or
/// dropped the connection (restart, failover, network): a transient fault,
/// answered as ``AuthError/databaseUnavailable`` (503), never as a 500 or a hang.
struct DatabaseUnavailableError: Error, Sendable, CustomStringConvertible {
    private enum Code: String { case connectionClosed }
    private let code: Code

    /// The pooled connection closed before the statement could be sent.
    static let connectionClosed = DatabaseUnavailableError(code: .connectionClosed)

    var description: String { "The database connection closed before the statement was sent (\(code.rawValue))." }

    /// Whether `error` means the database is unreachable rather than that a statement is wrong.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if error is DatabaseUnavailableError { return true }
        // The pool's own errors (circuit breaker open after failed connection
        // attempts, pool shut down) live in postgres-nio's underscored
        // `_ConnectionPoolModule`; matched by name rather than depending on it.
        if String(describing: type(of: error)) == "ConnectionPoolError" { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed:
            return true
        case .server:
            // Class 08 is "connection exception"; 57P01-57P03 are admin shutdown,
            // crash shutdown and "cannot connect now" (a restart in progress).
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }
}
