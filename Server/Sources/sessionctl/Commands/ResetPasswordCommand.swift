import ArgumentParser
import Foundation
import SessionKit

/// `sessionctl reset-password`: mails a reset code, reads it and a new
/// password, and ends signed in with the new password (every other session
/// of the account is signed out).
struct ResetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Reset a forgotten password with a code mailed to the address, and sign in.",
        discussion: """
            On a terminal, the code and the new password are asked for (the password twice, not shown). \
            Scripts pass --stdin: the first line is the code, the second the new password.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Account email (prompted for on a terminal when missing).", valueName: "address"))
    var email: String?

    @Flag(help: "Read the code, then the new password, from the first two lines of standard input.")
    var stdin = false

    func run() async throws {
        try await global.execute { context in
            let prompt = CredentialPrompt(options: try CredentialOptions.parse(email.map { ["--email", $0] } ?? []))
            let address = try prompt.email()
            let session = try await context.withClient(signedIn: false) { client in
                try await context.spin("Sending a reset code") { try await client.sendPasswordReset(to: address) }
                context.output.note("If \(address) has an account, a six-digit reset code is on its way.")
                let code = try prompt.code(fromStdin: stdin)
                let password = try prompt.newPassword(fromStdin: stdin)
                return try await context.spin("Setting the new password") {
                    try await client.completePasswordReset(email: address, code: code, newPassword: password)
                }
            }
            context.rememberServer()
            context.output.emit(
                "Password changed; signed in as \(session.user?.email ?? address) (profile \(context.profile)). "
                    + "Every other session of the account was signed out.",
                json: SignedInSummary.json(session, context: context))
        }
    }
}
