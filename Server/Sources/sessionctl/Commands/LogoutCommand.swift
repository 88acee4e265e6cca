import ArgumentParser
import Foundation
import Logging
import SessionKit

/// `sessionctl logout [--all]`: ends the session here (and, with `--all`, everywhere).
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Sign out on this device, or with --all on every device.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Also sign out every other device of this account.")
    var all = false

    func run() async throws {
        try await global.execute { context in
            let wasSignedIn: Bool
            do {
                wasSignedIn = try await context.store.load()?.holdsSession == true
            } catch {
                // Unreadable: signing out still clears it.
                context.logger.warning("The stored session could not be read", metadata: ["reason": "\(error)"])
                wasSignedIn = true
            }
            guard wasSignedIn else {
                context.output.emit("Already signed out (profile \(context.profile)).", json: ["signed_out": true, "was_signed_in": false])
                return
            }
            try await context.withClient { client in
                do {
                    try await context.spin("Signing out") { try await client.signOut(scope: all ? .global : .local) }
                } catch let error as SessionError where error == .network {
                    // `.global` signs out here first; only telling the server failed.
                    throw CLIError(
                        exitCode: 3, code: "UNREACHABLE",
                        message: "Signed out on this device, but the server is unreachable, so your other devices "
                            + "are still signed in. Sign in again and run `sessionctl logout --all` later.")
                }
            }
            context.output.emit(
                all ? "Signed out on every device." : "Signed out (profile \(context.profile)).",
                json: ["signed_out": true, "was_signed_in": true, "all": .bool(all)])
        }
    }
}
