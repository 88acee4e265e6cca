import ArgumentParser

/// `sessionctl`: a signed-in session from a terminal, built on SessionKit.
@main
struct SessionCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessionctl",
        abstract: "Sign in to a SessionKit (or Supabase) auth server and stay signed in.",
        subcommands: []
    )
}
