import ArgumentParser

/// How `login` and `signup` get an email and a password.
///
/// There is deliberately no `--password VALUE`: a flag's value is visible to
/// every user in `ps`. Scripts use `--password-stdin` or `SESSIONKIT_PASSWORD`.
struct CredentialOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Account email (prompted for on a terminal when missing).", valueName: "address"))
    var email: String?

    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false
}
