import ArgumentParser
import Foundation
import SessionCore
import SessionKit

/// `sessionctl login`: signs in with email and password and saves the session.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in with email and password.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var credentials: CredentialOptions

    func run() async throws {
        try await global.execute { context in
            let (email, password) = try CredentialPrompt(options: credentials).read()
            let session = try await context.withClient(signedIn: false) { client in
                try await context.spin("Signing in") { try await client.signIn(email: email, password: password) }
            }
            context.rememberServer()
            context.output.emit(
                "Signed in as \(session.user?.email ?? email) on \(context.server.absoluteString) (profile \(context.profile)).",
                json: SignedInSummary.json(session, context: context))
        }
    }
}

/// The JSON every command that reports a session prints.
enum SignedInSummary {
    static func json(_ session: Session, context: CLIContext, state: String = "signedIn") -> [String: JSONValue] {
        [
            "state": .string(state),
            "email": session.user?.email.map(JSONValue.string) ?? .null,
            "user_id": session.user.map { .string($0.id) } ?? .null,
            "session_id": session.sessionID.map(JSONValue.string) ?? .null,
            "expires_at": Output.date(session.expiresAt),
            "server": .string(context.server.absoluteString),
            "profile": .string(context.profile),
        ]
    }
}
