import Foundation
import Logging
import SQLKit
import SessionCore

/// Everything the server keeps: users, sessions, refresh tokens, signing
/// keys and activities, on SQLite or PostgreSQL through SQLKit.
///
/// Each public method is one transaction. Tests reach the store through
/// ``AuthServer/store`` to assert what was (and was not) written.
public final class AuthStore: Sendable {
    let driver: any DatabaseDriver
    let schema: String?
    /// Recent "session is live" answers; every revocation here clears them.
    public let sessionChecks: SessionCheckCache
    /// Recent user rows for ``currentUser(id:now:)``; every write to users or identities here clears them.
    public let userCache: UserCache

    init(driver: any DatabaseDriver, schema: String?, sessionCheckTTL: TimeInterval) {
        self.driver = driver
        self.schema = schema
        self.sessionChecks = SessionCheckCache(ttl: sessionCheckTTL)
        self.userCache = UserCache(ttl: sessionCheckTTL)
    }

    /// Opens the store at `location`; nothing is read until the driver runs.
    ///
    /// - Parameter sessionCheckTTL: seconds a "session is live" answer and a
    ///   user row are reused (``SessionCheckCache``, ``UserCache``); 0, the
    ///   default, reads them every time.
    public static func open(
        _ location: DatabaseLocation, logger: Logger, sessionCheckTTL: TimeInterval = 0
    ) async throws -> AuthStore {
        switch location {
        case .sqlite(let path):
            return AuthStore(
                driver: try SQLiteDriver(path: path, logger: logger), schema: nil, sessionCheckTTL: sessionCheckTTL)
        case .sqliteInMemory:
            return AuthStore(
                driver: try SQLiteDriver(path: nil, logger: logger), schema: nil, sessionCheckTTL: sessionCheckTTL)
        case .postgres(let url):
            let driver = try PostgresDriver(url: url, logger: logger)
            return AuthStore(driver: driver, schema: driver.schema, sessionCheckTTL: sessionCheckTTL)
        }
    }

    /// The database kind behind this store.
    public var flavor: SQLFlavor { driver.flavor }

    /// Keeps database connections alive until graceful shutdown; run it as a service.
    public func run() async throws {
        try await driver.run()
    }

    /// Brings the schema up to date.
    ///
    /// - Returns: how many migration steps ran.
    @discardableResult
    public func migrate() async throws -> Int {
        try await Migrations.run(on: driver, schema: schema)
    }

    /// Runs `body` in one transaction, for tests and tools that inspect rows.
    public func withTransaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await driver.transaction(body)
    }

    static let metadataEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// The stored text of `metadata`, refused (400) when its shape is past
    /// ``MetadataLimits`` or the text would not read back: what is written
    /// must answer every later read, an admin list page included.
    static func encodeMetadata(_ metadata: [String: JSONValue]) throws -> String {
        try MetadataLimits.check(metadata)
        let text = String(decoding: try metadataEncoder.encode(metadata), as: UTF8.self)
        do {
            _ = try decodeMetadata(text)
        } catch {
            throw AuthError.invalidRequest(field: "data", "This metadata cannot be stored: it does not read back as JSON.")
        }
        return text
    }

    /// One decoder for every row: a user row is decoded on every refresh.
    static let metadataDecoder = JSONDecoder()

    static func decodeMetadata(_ text: String) throws -> [String: JSONValue] {
        // Nearly every row holds `{}`: no decoder needed.
        if text == "{}" { return [:] }
        return try metadataDecoder.decode([String: JSONValue].self, from: Data(text.utf8))
    }
}
