import ArgumentParser
import Foundation
import Logging
import SessionServer

/// Options shared by every subcommand. Each flag falls back to an
/// environment variable (`AUTH_SERVER_PORT`, …), then to DESIGN.md's default.
struct ServerOptions: ParsableArguments {
    @Option(help: "Interface to bind (env AUTH_SERVER_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to bind (env AUTH_SERVER_PORT; default 9999).")
    var port: Int?

    @Option(help: "SQLite file path, :memory:, or postgres://… URL (env AUTH_SERVER_DATABASE; default ./data/auth.sqlite).")
    var database: String?

    @Option(help: "Access token lifetime in seconds (env AUTH_SERVER_ACCESS_TOKEN_TTL; default 3600).")
    var accessTokenTtl: Double?

    @Option(help: "Refresh reuse grace in seconds (env AUTH_SERVER_REFRESH_GRACE; default 10).")
    var refreshGrace: Double?

    @Option(help: "Clock-skew leeway in seconds (env AUTH_SERVER_LEEWAY; default 60).")
    var leeway: Double?

    @Option(help: "Log level (env LOG_LEVEL; default info).")
    var logLevel: String?

    func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AuthServerConfiguration {
        var configuration = AuthServerConfiguration()
        if let host = host ?? environment["AUTH_SERVER_HOST"] { configuration.host = host }
        if let port = try port ?? number(environment, "AUTH_SERVER_PORT").map(Int.init) { configuration.port = port }
        if let database = database ?? environment["AUTH_SERVER_DATABASE"] {
            configuration.database = DatabaseLocation(parsing: database)
        }
        if let ttl = try accessTokenTtl ?? number(environment, "AUTH_SERVER_ACCESS_TOKEN_TTL") {
            configuration.accessTokenTTL = ttl
        }
        if let grace = try refreshGrace ?? number(environment, "AUTH_SERVER_REFRESH_GRACE") {
            configuration.refreshGrace = grace
        }
        if let leeway = try leeway ?? number(environment, "AUTH_SERVER_LEEWAY") { configuration.leeway = leeway }
        guard (0...65_535).contains(configuration.port) else { throw ValidationError("--port must be 0 to 65535.") }
        guard configuration.accessTokenTTL > 0 else { throw ValidationError("--access-token-ttl must be positive.") }
        guard configuration.refreshGrace >= 0, configuration.leeway >= 0 else {
            throw ValidationError("--refresh-grace and --leeway must not be negative.")
        }
        return configuration
    }

    func logger() -> Logger {
        var logger = Logger(label: "auth-server")
        let level = logLevel ?? ProcessInfo.processInfo.environment["LOG_LEVEL"]
        logger.logLevel = level.flatMap(Logger.Level.init(rawValue:)) ?? .info
        return logger
    }

    private func number(_ environment: [String: String], _ name: String) throws -> Double? {
        guard let text = environment[name] else { return nil }
        guard let value = Double(text), value.isFinite else { throw ValidationError("\(name) must be a number, got '\(text)'.") }
        return value
    }
}
