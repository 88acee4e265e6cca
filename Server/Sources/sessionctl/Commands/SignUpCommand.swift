import ArgumentParser
import Foundation
import SessionKit

/// `sessionctl signup`: creates an account and, when the server allows, signs in.
struct SignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Create an account with email and password, and sign in.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var credentials: CredentialOptions

    func run() async throws {
        try await global.execute { context in
            let (email, password) = try CredentialPrompt(options: credentials).read(confirm: true)
            let result = try await context.withClient(signedIn: false) { client in
                try await context.spin("Creating your account") {
                    try await client.signUp(email: email, password: password)
                }
            }
            context.rememberServer()
            switch result {
            case .signedIn(let session):
                context.output.emit(
                    "Account created; signed in as \(session.user?.email ?? email) (profile \(context.profile)).",
                    json: SignedInSummary.json(session, context: context))
            case .confirmationRequired(let user):
                // No new code is requested: the sign-up already mailed one, and a
                // sign-in code would clear the password of an unconfirmed account.
                context.output.emit(
                    "Account created; confirm your email. A code is on its way to \(user.email ?? email): run `sessionctl login --email-code --confirm-signup` and enter it (or open the email's link); then your password signs in.",
                    json: ["state": "confirmationRequired", "email": .string(user.email ?? email), "user_id": .string(user.id)])
            }
        }
    }
}
