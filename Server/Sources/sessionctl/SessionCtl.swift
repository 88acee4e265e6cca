import ArgumentParser
import Foundation

/// `sessionctl`: a signed-in session from a terminal, built on SessionKit.
@main
struct SessionCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessionctl",
        abstract: "Sign in to a SessionKit (or Supabase) auth server and stay signed in.",
        discussion: """
            Sessions live in $XDG_CONFIG_HOME/sessionkit/<profile> (else ~/.config/sessionkit/<profile>), mode 0600.
            Exit codes: 0 done, 1 not signed in or session expired (or refused), 2 usage, \
            3 server unreachable (still signed in), 4 anything else.
            Scripts: pass the password with --password-stdin or SESSIONKIT_PASSWORD, never as an argument.
            """,
        subcommands: [
            SignUpCommand.self, LoginCommand.self, ResetPasswordCommand.self, StatusCommand.self, WhoamiCommand.self, TokenCommand.self,
            RefreshCommand.self, SessionsCommand.self, LogoutCommand.self, WatchCommand.self,
        ]
    )

    /// ArgumentParser exits 64 on a usage error; sessionctl documents 2 (as
    /// most Unix tools do), so parse errors are mapped here.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Self.exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}
