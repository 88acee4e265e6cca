import ArgumentParser

/// Options every command takes: which server, which account, how to print.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Auth server URL (env SESSIONKIT_SERVER; else the profile's last server; default http://127.0.0.1:8080).",
            valueName: "url"))
    var server: String?

    @Option(
        name: .customLong("api-key"),
        help: ArgumentHelp("Supabase anon key, sent as `apikey` (env SESSIONKIT_API_KEY).", valueName: "key"))
    var apiKey: String?

    @Option(help: ArgumentHelp("Profile, for several accounts (env SESSIONKIT_PROFILE; default \"default\").", valueName: "name"))
    var profile: String?

    @Flag(help: "Machine-readable JSON output (one object per line).")
    var json = false

    @Flag(name: [.short, .long], help: "Log what the SDK does, on standard error.")
    var verbose = false
}
