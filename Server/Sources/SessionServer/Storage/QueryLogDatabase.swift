import Logging
import NIOCore
import SQLKit

/// A SQL database that logs each query's text at `debug`, never its bound
/// values: those are password hashes, refresh token hashes, sealed successors
/// and signing keys.
///
/// The drivers underneath are built with their own query logging off
/// (SQLKit's logs every bind) and a logger that never goes below `info`, so
/// their trace output (postgres-nio logs every row it receives) cannot leak
/// either. ``driverLogger(_:)`` makes that logger.
struct QueryLogDatabase: SQLDatabase {
    let base: any SQLDatabase
    /// The server's logger, at whatever level the operator chose.
    let queryLogger: Logger

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        log(query)
        return base.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        log(query)
        try await base.execute(sql: query, onRow)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }

    private func log(_ query: any SQLExpression) {
        guard queryLogger.logLevel <= .debug else { return }
        // The text only: binds stay placeholders ($1, ?).
        var serializer = SQLSerializer(database: base)
        query.serialize(to: &serializer)
        queryLogger.debug("Executing query", metadata: ["sql": "\(serializer.sql)"])
    }

    /// `logger`, raised to `info` when it is lower: what the database libraries log below that holds values.
    static func driverLogger(_ logger: Logger) -> Logger {
        var driverLogger = logger
        if driverLogger.logLevel < .info { driverLogger.logLevel = .info }
        return driverLogger
    }
}
