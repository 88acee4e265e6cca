import Foundation

/// Where the server keeps its data.
public enum DatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    /// An SQLite file, created with its folder when missing.
    case sqlite(path: String)
    /// An SQLite database in memory: gone when the server stops (tests).
    case sqliteInMemory
    /// A PostgreSQL server: `postgres://user:password@host:port/database`.
    ///
    /// Optional query items: `schema=NAME` (tables live in that schema,
    /// created when missing; tests use one per run), `sslmode` with libpq's
    /// values (`disable`, `prefer`, `require`, `verify-ca`, `verify-full`;
    /// anything else is a startup error) and `sslrootcert=PATH`.
    case postgres(url: String)

    /// Reads `--database`: a `postgres://` or `postgresql://` URL, `:memory:`, or a file path.
    public init(parsing text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text == ":memory:" {
            self = .sqliteInMemory
        } else {
            self = .sqlite(path: text)
        }
    }

    /// A description with any password removed, safe to log.
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .sqliteInMemory: return "sqlite::memory:"
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://<unparseable>" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres://<unparseable>"
        }
    }
}
