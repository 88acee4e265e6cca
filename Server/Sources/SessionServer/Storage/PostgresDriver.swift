import Foundation
import Logging
import PostgresKit
import PostgresNIO
import SQLKit

/// PostgreSQL through postgres-nio's `PostgresClient`, which must be run as a
/// service (postgres-kit's pool is not Sendable in Swift 6).
final class PostgresDriver: DatabaseDriver {
    let flavor = SQLFlavor.postgres
    let client: PostgresClient
    /// The schema the tables live in, when the URL named one.
    let schema: String?
    private let logger: Logger

    init(url: String, logger: Logger) throws {
        guard let components = URLComponents(string: url), let host = components.host else {
            throw ConfigurationError("The PostgreSQL URL is not valid: \(DatabaseLocation.postgres(url: url))")
        }
        let query = components.queryItems ?? []
        let schema = query.first { $0.name == "schema" }?.value
        if let schema, !schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
            throw ConfigurationError("The schema name may hold only letters, digits and underscores.")
        }
        let tls = try PostgresSSLMode(parameter: query.first { $0.name == "sslmode" }?.value)
            .tls(rootCertificate: query.first { $0.name == "sslrootcert" }?.value)
        let database = components.path.split(separator: "/").first.map(String.init)
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
            password: components.password, database: database, tls: tls)
        if let schema {
            // Every pooled connection starts with the schema on its search path.
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        self.client = PostgresClient(configuration: configuration, backgroundLogger: QueryLogDatabase.driverLogger(logger))
        self.schema = schema
        self.logger = logger
    }

    /// Runs `body` in one transaction on a pooled connection.
    ///
    /// - Throws: what `body` threw (a domain error stays itself), or
    ///   ``AuthError/databaseUnavailable`` when the connection is lost or
    ///   cannot be made: the caller answers 503 and the client retries.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await withPooledConnection { db in try await Self.transaction(on: db, body) }
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await withPooledConnection { db in try await body(db) }
    }

    /// `body` on a pooled connection; a lost or unobtainable connection is ``AuthError/databaseUnavailable``.
    private func withPooledConnection<T: Sendable>(
        _ body: @Sendable (LiveConnectionDatabase) async throws -> T
    ) async throws -> T {
        do {
            return try await client.withConnection { [logger] connection in
                try await body(LiveConnectionDatabase(connection: connection, queryLogger: logger))
            }
        } catch let error as AuthError {
            throw error
        } catch let error where DatabaseUnavailableError.isConnectionLoss(error) {
            // The type only: an error's description may hold SQL or a bound value.
            logger.warning("The database is unavailable", metadata: ["error.type": "\(type(of: error))"])
            throw AuthError.databaseUnavailable
        }
    }

    /// BEGIN, `body`, COMMIT; ROLLBACK when `body` throws. Every statement,
    /// these three included, goes through ``LiveConnectionDatabase`` so none
    /// can hang on a connection that closed mid-transaction.
    private static func transaction<T: Sendable>(
        on db: LiveConnectionDatabase, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await db.raw("BEGIN").run()
        let value: T
        do {
            value = try await body(db)
        } catch {
            do {
                try await db.raw("ROLLBACK").run()
            } catch {
                // The connection is gone or broken; PostgreSQL rolls back on its own when it closes.
                db.logger.notice("PostgreSQL rollback failed", metadata: ["error.type": "\(type(of: error))"])
            }
            throw error
        }
        try await db.raw("COMMIT").run()
        return value
    }

    func run() async throws {
        await client.run()
    }
}
