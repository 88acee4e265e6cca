import ArgumentParser
import Foundation
import SessionCore
import SessionKit

/// `sessionctl login`: signs in with email and password, with a code mailed
/// to the address, or with an OAuth provider through the browser, and saves the session.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in with email and password, with --email-code, or with --provider through the browser.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var credentials: CredentialOptions

    @Option(help: ArgumentHelp("Sign in with this OAuth provider (for example strava) in the browser.", valueName: "name"))
    var provider: String?

    @Option(help: "Loopback port for the browser's redirect (0 picks a free one).")
    var redirectPort = 0

    @Option(help: "Seconds to wait for the browser.")
    var timeout = 300

    @Flag(help: "Sign in with a six-digit code mailed to the address instead of a password.")
    var emailCode = false

    @Flag(help: "With --email-code: create the account if the address has none.")
    var createAccount = false

    @Flag(help: "With --email-code: read the code from the first line of standard input.")
    var stdin = false

    @Flag(help: "With --email-code: enter the code of the confirmation email sent at sign-up; no new code is mailed.")
    var confirmSignup = false

    func run() async throws {
        if let provider {
            try await signInWithProvider(provider)
            return
        }
        if emailCode {
            try await signInWithEmailCode()
            return
        }
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

    /// Asks the server to mail a code, then reads it from the terminal (or standard input).
    private func signInWithEmailCode() async throws {
        try await global.execute { context in
            let prompt = CredentialPrompt(options: credentials)
            let email = try prompt.email()
            let session = try await context.withClient(signedIn: false) { client in
                if !confirmSignup {
                    try await context.spin("Sending a code") { try await client.sendEmailCode(to: email, createUser: createAccount) }
                    context.output.note(
                        "If \(email) has an account\(createAccount ? " (or may get one)" : ""), a six-digit code is on its way.")
                }
                let code = try prompt.code(fromStdin: stdin)
                return try await context.spin("Signing in") { try await client.verifyEmailCode(email: email, code: code) }
            }
            context.rememberServer()
            context.output.emit(
                "Signed in as \(session.user?.email ?? email) on \(context.server.absoluteString) (profile \(context.profile)).",
                json: SignedInSummary.json(session, context: context))
        }
    }

    /// Prints the provider's URL, waits for the redirect on a loopback port,
    /// and ends signed in — or with a typed error, never a half state.
    private func signInWithProvider(_ provider: String) async throws {
        try await global.execute { context in
            let listener = try LoopbackRedirectListener(port: redirectPort)
            defer { listener.close() }
            let session = try await context.withClient(signedIn: false) { client in
                let url = try await client.signInWithOAuth(provider: provider, redirectTo: listener.redirectURL)
                context.output.emit(
                    "Open this URL in your browser to sign in with \(provider):\n\(url.absoluteString)\n"
                        + "Waiting for the browser on \(listener.redirectURL.absoluteString) …",
                    json: ["url": .string(url.absoluteString), "redirect_to": .string(listener.redirectURL.absoluteString)])
                let callback = try await listener.waitForCallback(timeout: TimeInterval(timeout))
                return try await context.spin("Signing in") { try await client.handleOAuthCallback(callback) }
            }
            context.rememberServer()
            context.output.emit(
                "Signed in with \(provider) as \(session.user?.email ?? session.user?.id ?? "a new user") on "
                    + "\(context.server.absoluteString) (profile \(context.profile)).",
                json: SignedInSummary.json(session, context: context))
        }
    }
}
