import ArgumentParser
import Foundation
import SessionKit

/// `sessionctl token`: prints a usable access token for scripts, refreshing
/// first if it has expired. Many can run at once on one profile: the store's
/// lock lets one process refresh and the others adopt its session.
///
/// ```sh
/// curl -H "Authorization: Bearer $(sessionctl token)" http://127.0.0.1:8080/v1/auth/me
/// ```
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a fresh access token (refreshing if needed), for scripts.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.execute { context in
            let session = try await context.withSession { client, _ in
                _ = try await context.spin("Refreshing your session") { try await client.accessToken() }
                guard let session = await client.currentSession else { throw CLIError.notSignedIn() }
                return session
            }
            // The one place sessionctl prints a token: this command's whole purpose.
            context.output.emit(
                session.accessToken,
                json: ["access_token": .string(session.accessToken), "expires_at": Output.date(session.expiresAt)])
        }
    }
}
