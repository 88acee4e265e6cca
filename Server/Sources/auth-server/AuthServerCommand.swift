import ArgumentParser
import Hummingbird
import Logging
import SessionServer

/// `auth-server`: serve, migrate, keys.
@main
struct AuthServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth-server",
        abstract: "SessionKit's GoTrue-compatible auth server.",
        subcommands: [Serve.self, Migrate.self, Keys.self],
        defaultSubcommand: Serve.self)
}

/// Starts the server.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server (migrates the database first).")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let configuration = try options.configuration()
        let logger = options.logger()
        logger.info(
            "Starting auth-server",
            metadata: ["address": "\(configuration.host):\(configuration.port)", "database": "\(configuration.database)"])
        let server = try await AuthServer(configuration: configuration, logger: logger)
        // SIGTERM and SIGINT shut down gracefully: the server drains, then the database closes.
        try await server.makeApplication().runService()
    }
}

/// Applies migrations and exits.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply database migrations and exit.")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let server = try await AuthServer(configuration: try options.configuration(), logger: options.logger())
        try await server.withDatabase {
            let steps = try await server.store.migrate()
            print("auth-server: \(steps) migration step(s) applied")
        }
    }
}

/// Key management.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Manage signing keys.", subcommands: [Rotate.self])

    /// Makes a new signing key current; the previous one keeps verifying.
    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate a new signing key; the previous key stays in the JWKS until the next rotation.")

        @OptionGroup var options: ServerOptions

        func run() async throws {
            let server = try await AuthServer(configuration: try options.configuration(), logger: options.logger())
            try await server.withDatabase {
                try await server.prepare()
                let kid = try await server.keyRing.rotate()
                print("auth-server: new signing key \(kid)")
            }
        }
    }
}
