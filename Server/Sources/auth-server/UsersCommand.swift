import ArgumentParser
import Foundation
import SessionServer

/// User maintenance against the shared database (docs/SERVER.md, "Commands").
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Maintain users.", subcommands: [PruneAnonymous.self])

    /// Deletes abandoned anonymous users; GoTrue leaves this to SQL, here the operator runs it.
    struct PruneAnonymous: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune-anonymous",
            abstract: "Delete anonymous users not seen (sign-in or refresh) for longer than --older-than.",
            discussion: """
                An anonymous user has no email, password or provider: once their app loses the session, nobody can \
                sign in to the account again. This deletes such users, with everything they own, when no session of \
                theirs has signed in or refreshed since the cutoff. Users with an email, a password or a provider are \
                never touched. Each deletion is written to the audit log (docs/ACCOUNTS.md).
                """)

        @OptionGroup var options: ServerOptions

        @Option(help: "How long a user must have gone unseen: a whole number and s, m, h or d, e.g. 30d.")
        var olderThan: String

        func validate() throws {
            do {
                _ = try IdleAge(parsing: olderThan)
            } catch let error as ConfigurationError {
                throw ValidationError(error.description)
            }
        }

        func run() async throws {
            let age = try IdleAge(parsing: olderThan)
            let server = try await AuthServer(configuration: try options.configuration(), logger: options.logger())
            try await server.withDatabase {
                try await server.store.migrate()
                let deleted = try await server.pruneAnonymousUsers(olderThan: age)
                print("auth-server: deleted \(deleted) anonymous user(s) not seen for \(age)")
            }
        }
    }
}
