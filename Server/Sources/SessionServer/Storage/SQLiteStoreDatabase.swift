import Logging
import NIOCore
import SQLiteKit

/// SQLiteKit's SQL database on the store's one connection, handing out
/// ``SQLiteStoreRow``s instead of SQLiteKit's private row wrapper.
///
/// Everything else is SQLiteKit's: the dialect, the serializer, the encoding
/// of binds and the connection's query call, as its `sql()` database does
/// them. The encoder and decoder are shared (SQLiteKit made a JSON encoder and
/// decoder for every transaction); both only read their configuration.
struct SQLiteStoreDatabase: SQLDatabase {
    let connection: SQLiteConnection

    private static let encoder = SQLiteDataEncoder()
    private static let decoder = SQLiteDataDecoder()

    var logger: Logger { connection.logger }
    var eventLoop: any EventLoop { connection.eventLoop }
    /// SQLiteKit's answer (the library's runtime version); nothing on the store's path asks.
    var version: (any SQLDatabaseReportedVersion)? { connection.sql(queryLogLevel: nil).version }
    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let (sql, rawBinds) = serialize(query)
        let binds: [SQLiteData]
        do {
            binds = try rawBinds.map { try Self.encoder.encode($0) }
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return connection.query(sql, binds) { onRow(SQLiteStoreRow(row: $0, decoder: Self.decoder)) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, rawBinds) = serialize(query)
        let binds = try rawBinds.map { try Self.encoder.encode($0) }
        try await connection.query(sql, binds) { onRow(SQLiteStoreRow(row: $0, decoder: Self.decoder)) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}
