import Foundation
import ArgumentParser
import Hummingbird
import Logging
import SessionServer

/// `auth-server`: serve, migrate, keys, users.
@main
struct AuthServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth-server",
        abstract: "SessionKit's GoTrue-compatible auth server.",
        subcommands: [Serve.self, Migrate.self, Keys.self, Users.self],
        defaultSubcommand: Serve.self)
}

/// Starts the server.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server (migrates the database first).")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let configuration = try options.configuration()
        if let refusal = configuration.refusalToServe { throw ValidationError(refusal.description) }
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

/// Key management, against the database every replica shares; running
/// servers see a change within their key refresh interval.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage signing keys.",
        discussion: """
            Signing keys are stored sealed under the key-encryption key (KEK). Create one once and give every \
            command and server the same file: `openssl rand -base64 32 > kek && chmod 600 kek`, then \
            --key-encryption-key-file kek (or AUTH_SERVER_KEY_ENCRYPTION_KEY_FILE). Keys sealed under the built-in \
            default move onto your KEK at the next start; then `keys rotate` and, once tokens of the old key have \
            expired, `keys retire` it, since a copy of the database made before could open it. A KEK cannot be \
            replaced by another in place: rotate signing keys instead (docs/ADMIN.md, "The key-encryption key").
            """,
        subcommands: [List.self, Rotate.self, Retire.self, ServiceRole.self])

    /// Prints a service-role key for the admin API.
    struct ServiceRole: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "service-role",
            abstract: "Print a service-role key for /auth/v1/admin (keep it on servers; never ship it in an app).",
            discussion: """
                The key is a JWT with role service_role, signed by the current signing key, carrying its name and \
                a random id (never secret: the audit log and the console show them). It works until it expires or \
                that key is retired: after `keys rotate` and then `keys retire` of the old key, print a new one. A \
                console signed in with it ends with it.
                """)

        @OptionGroup var options: ServerOptions

        @Option(help: "The key's name in the audit log and the console: letters, digits, '-', '_' or '.', up to 64.")
        var name = "service-role"

        @Option(help: "Days the key is valid, 1 to 3650.")
        var days = 90

        func validate() throws {
            guard (1...3650).contains(days) else { throw ValidationError("--days must be from 1 to 3650.") }
            guard ServiceRoleIdentity.isValid(name: name) else {
                throw ValidationError("--name must be 1 to 64 letters, digits, '-', '_' or '.'.")
            }
        }

        func run() async throws {
            let server = try await AuthServer(configuration: try options.configuration(), logger: options.logger())
            try await server.withDatabase {
                try await server.prepare()
                print(try await server.serviceRoleKey(name: name, lifetime: TimeInterval(days) * 86_400))
            }
        }
    }

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

    /// Prints every key with its state.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the signing keys: signing, verifying or retired.")

        @OptionGroup var options: ServerOptions

        func run() async throws {
            let server = try await AuthServer(configuration: try options.configuration(), logger: options.logger())
            try await server.withDatabase {
                try await server.prepare()
                let keys = try await server.store.signingKeyList()
                print("KID               GEN  STATE      CREATED               RETIRED")
                for key in keys {
                    let retired = key.retiredAt.map(Self.format) ?? "-"
                    print(
                        key.kid.padding(toLength: 18, withPad: " ", startingAt: 0)
                            + String(key.generation).padding(toLength: 5, withPad: " ", startingAt: 0)
                            + key.state.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
                            + Self.format(key.createdAt).padding(toLength: 22, withPad: " ", startingAt: 0) + retired)
                }
            }
        }

        static func format(_ date: Date) -> String {
            date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false))
        }
    }

    /// Retires a verifying key (one that leaked, say).
    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Retire a verifying key: tokens it signed stop verifying on every server within the key refresh interval; clients refresh and carry on.")

        @OptionGroup var options: ServerOptions

        @Argument(help: "The key's id, from `auth-server keys list`.")
        var kid: String

        func run() async throws {
            let server = try await AuthServer(configuration: try options.configuration(), logger: options.logger())
            try await server.withDatabase {
                try await server.prepare()
                do {
                    if try await server.keyRing.retire(kid: kid) {
                        print("auth-server: retired signing key \(kid)")
                    } else {
                        print("auth-server: signing key \(kid) was already retired")
                    }
                } catch let error as KeyManagementError {
                    // A refusal, not a usage mistake: the reason without the usage text.
                    FileHandle.standardError.write(Data("auth-server: \(error.description)\n".utf8))
                    throw ExitCode.failure
                }
            }
        }
    }
}
