import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// postgres-kit's SQL database on one pooled connection, that fails a query
/// at once when the connection has already closed.
///
/// postgres-nio 1.33 writes each query to the channel without a write promise
/// (its fix, vapor/postgres-nio#487, was reverted in #501). Once PostgreSQL has
/// dropped the connection (a restart, a failover, `pg_terminate_backend`) and
/// the channel's handlers are gone, a query written to it is discarded and its
/// result never arrives: the transaction, and the HTTP request behind it, hang
/// forever. This wrapper checks the channel and writes the query in the same
/// event-loop tick, so a query either reaches postgres-nio's state machine
/// (which fails it when the connection closes later) or is refused here.
struct LiveConnectionDatabase: SQLDatabase {
    let base: any SQLDatabase
    let connection: PostgresConnection

    /// - Parameter queryLogger: logs each query's text at `debug`, without binds (``QueryLogDatabase``).
    init(connection: PostgresConnection, queryLogger: Logger) {
        self.base = QueryLogDatabase(
            base: connection.sql(queryLogLevel: nil, logger: QueryLogDatabase.driverLogger(queryLogger)),
            queryLogger: queryLogger)
        self.connection = connection
    }

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { connection.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let connection = self.connection
        let base = self.base
        // On the event loop, postgres-kit's future-based `execute` writes the
        // query synchronously (its bindings are a completed future, and
        // `Channel.write` runs inline on the loop), so nothing can close the
        // channel between the check and the write.
        return connection.eventLoop.flatSubmit {
            guard !connection.isClosed else {
                return connection.eventLoop.makeFailedFuture(DatabaseUnavailableError.connectionClosed)
            }
            return base.execute(sql: query, onRow)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await execute(sql: query, onRow).get()
    }

    /// Returns once the connection has closed and its channel is torn down.
    func closed() async {
        do {
            try await connection.closeFuture.get()
        } catch {
            // A channel's close future does not fail; either way it is closed now.
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}
