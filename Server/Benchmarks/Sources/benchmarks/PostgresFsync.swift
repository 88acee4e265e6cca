import Foundation
import Logging
import PostgresKit

/// Turns PostgreSQL's `fsync` on or off for item 4, with `ALTER SYSTEM` and a
/// reload (the setting is per server, not per session), and reads it back.
///
/// `ALTER SYSTEM` cannot run inside a transaction, so this opens a plain
/// connection of its own rather than going through `AuthStore`. A server
/// started with `-c fsync=off` on its command line (as `.ci/postgres.sh`
/// starts the tests' one) ignores `ALTER SYSTEM`; `Benchmarks/run` starts one
/// of its own without that, and `set` reports what the server really uses.
struct PostgresFsync {
    let url: String

    /// Sets `fsync` (`nil`: back to the configuration files' value) and returns what `SHOW fsync` then says.
    func set(_ on: Bool?) async throws -> String {
        try await withConnection { connection, logger in
            if let on {
                try await connection.query(on ? "ALTER SYSTEM SET fsync = on" : "ALTER SYSTEM SET fsync = off", logger: logger)
            } else {
                try await connection.query("ALTER SYSTEM RESET fsync", logger: logger)
            }
            try await connection.query("SELECT pg_reload_conf()", logger: logger)
        }
        // The reload reaches each backend at its next command; read it back from a new one.
        var shown = ""
        for _ in 0..<20 {
            try await Task.sleep(for: .milliseconds(100))
            shown = try await show()
            if on == nil || shown == (on! ? "on" : "off") { break }
        }
        return shown
    }

    func show() async throws -> String {
        try await withConnection { connection, logger in
            var value = ""
            for try await text in try await connection.query("SHOW fsync", logger: logger).decode(String.self) { value = text }
            return value
        }
    }

    private func withConnection<T>(_ body: (PostgresConnection, Logger) async throws -> T) async throws -> T {
        guard let components = URLComponents(string: url), let host = components.host else {
            throw BenchError("not a PostgreSQL URL: \(url)")
        }
        let configuration = PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
            password: components.password, database: components.path.split(separator: "/").first.map(String.init),
            tls: .disable)
        let logger = Bench.quietLogger("bench-fsync")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let result = try await body(connection, logger)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
