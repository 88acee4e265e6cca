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
