import Foundation
import Logging
import SQLKit
import SQLiteKit
import ServiceLifecycle

/// SQLite through one connection: SQLite has a single writer anyway, and one
/// connection plus ``AsyncMutex`` makes every transaction strictly serial,
/// which is what rotation needs.
///
/// The connection opens on first use and closes when ``run()`` sees graceful
/// shutdown; a server that was built but never used holds no open file.
final class SQLiteDriver: DatabaseDriver, @unchecked Sendable {
    let flavor = SQLFlavor.sqlite
    private let path: String?
    private let logger: Logger
    private let mutex = AsyncMutex()
    // Guarded by `mutex` for opening and closing; the lock only makes reads safe.
    private let lock = NSLock()
    private var connection: SQLiteConnection?
    private var closed = false

    /// Prepares the database at `path` (created owner-only with its folder when
    /// missing, see ``SQLiteFilePermissions``), or in memory when `path` is `nil`.
    init(path: String?, logger: Logger) throws {
        if let path { try SQLiteFilePermissions.prepare(path: path, logger: logger) }
        self.path = path
        self.logger = logger
    }

    /// The open connection; call only while holding `mutex`.
    private func openConnection() async throws -> SQLiteConnection {
        if let existing = lock.withLock({ connection }) { return existing }
        guard !lock.withLock({ closed }) else { throw ConfigurationError("The SQLite database is closed.") }
        let opened = try await SQLiteConnection.open(
            storage: path.map { .file(path: $0) } ?? .memory, logger: QueryLogDatabase.driverLogger(logger))
        lock.withLock { connection = opened }
        let db = sql(opened)
        // Another process on the same file waits instead of failing at once.
        try await db.raw("PRAGMA busy_timeout = 5000").run()
        if path != nil {
            try await db.raw("PRAGMA journal_mode = WAL").run()
        }
        return opened
    }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await mutex.withLock {
            let db = sql(try await openConnection())
            // IMMEDIATE takes the write lock up front, so a read-then-write
            // transaction cannot be overtaken by another process.
            try await db.raw("BEGIN IMMEDIATE").run()
            do {
                let result = try await body(db)
                try await db.raw("COMMIT").run()
                return result
            } catch {
                do {
                    try await db.raw("ROLLBACK").run()
                } catch let rollbackError {
                    logger.error("SQLite rollback failed", metadata: ["error": "\(rollbackError)"])
                }
                throw error
            }
        }
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        // Still under the mutex: on the one connection, a read between another
        // transaction's statements would see what that transaction has not committed.
        try await mutex.withLock { try await body(sql(try await openConnection())) }
    }

    /// The connection as SQL, logging queries without their binds; its rows read
    /// without SQLKit's generic decoding (``SQLiteStoreRow``).
    private func sql(_ connection: SQLiteConnection) -> any SQLDatabase {
        QueryLogDatabase(base: SQLiteStoreDatabase(connection: connection), queryLogger: logger)
    }

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            // Cancellation also means shutdown; close below either way.
            logger.debug("SQLite driver stopping", metadata: ["reason": "\(error)"])
        }
        // Wait for the transaction in flight, then close. The future-based
        // close does not observe task cancellation, so it always completes.
        try await mutex.withLock {
            let open: SQLiteConnection? = lock.withLock {
                closed = true
                defer { connection = nil }
                return connection
            }
            if let open { try await open.close().get() }
        }
    }
}
