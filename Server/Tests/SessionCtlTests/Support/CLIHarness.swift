import Foundation
import ProcessTesting
import SessionCore
import Testing

/// A live server and a private config folder for `sessionctl` runs.
struct CLIHarness: Sendable {
    let directory: String
    let server: AuthServerProcess

    var configHome: String { directory + "/config" }

    /// Runs `body` against a fresh server, and always stops it.
    static func with(
        accessTokenTTL: Int = 3600, serverArguments: [String] = [], _ body: (CLIHarness) async throws -> Void
    ) async throws {
        let missing = Binaries.missing([Binaries.sessionctl, Binaries.authServer])
        try #require(missing == nil, "\(missing ?? "")")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sessionctl-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let server = try await AuthServerProcess(
            accessTokenTTL: accessTokenTTL, directory: directory, extraArguments: serverArguments)
        let harness = CLIHarness(directory: directory, server: server)
        let outcome: Result<Void, any Error>
        do {
            try await body(harness)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await server.stop()
        if case .success = outcome {
            // Kept after a failure: the logs in it tell what happened.
            try FileManager.default.removeItem(atPath: directory)
        }
        try outcome.get()
    }

    /// The whole environment of a `sessionctl` child: nothing leaks in from the test runner's.
    var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": directory, "XDG_CONFIG_HOME": configHome, "SESSIONKIT_SERVER": server.url]
    }

    /// Starts `sessionctl` without waiting (for `watch` and concurrent runs).
    /// - Parameter stdinPath: a file (or FIFO) to read instead of `stdin`'s text.
    func spawn(
        _ arguments: [String], stdin: String? = nil, stdinPath: String? = nil, environment extra: [String: String] = [:]
    ) throws -> ChildProcess {
        var stdinPath = stdinPath ?? "/dev/null"
        if let stdin {
            stdinPath = directory + "/stdin-\(UUID().uuidString.prefix(8))"
            try Data(stdin.utf8).write(to: URL(fileURLWithPath: stdinPath))
        }
        return try ChildProcess(
            executable: Binaries.sessionctl, arguments: arguments,
            environment: environment.merging(extra) { $1 }, standardInput: stdinPath,
            output: .separate(in: directory, for: Binaries.sessionctl))
    }

    /// Runs `sessionctl` to completion.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) async throws -> ProcessResult {
        try await spawn(arguments, stdin: stdin, environment: extra).wait()
    }

    /// Signs up `email` on `profile` and checks it worked.
    func signUp(_ email: String = "ada@example.com", profile: String = "default") async throws {
        let result = try await run(
            ["signup", "--email", email, "--password-stdin", "--profile", profile], stdin: "correct-horse-battery\n")
        try #require(result.status == 0, "\(result)")
    }

    /// One JSON object printed by a `--json` run.
    func json(_ result: ProcessResult) throws -> [String: JSONValue] {
        let line = try #require(result.stdout.split(separator: "\n").last, "no output: \(result)")
        return try WireCoding.decoder().decode([String: JSONValue].self, from: Data(line.utf8))
    }

    func profileDirectory(_ profile: String = "default") -> String { configHome + "/sessionkit/" + profile }

    /// Copies a profile's saved session, as a second machine holding the same session would.
    func copyProfile(_ source: String, to target: String) throws {
        try FileManager.default.copyItem(atPath: profileDirectory(source), toPath: profileDirectory(target))
    }

    /// Sleeps until the profile's access token has expired in real time
    /// (the server was started with a short lifetime). Waiting for time to
    /// pass is the point here; nothing is asserted about how long it took.
    /// Reads the saved record rather than running a command, which would
    /// refresh an already expired token.
    func waitUntilExpired(profile: String = "default") async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: profileDirectory(profile) + "/session.json"))
        let record = try WireCoding.decoder().decode([String: JSONValue].self, from: data)
        let expiresAt = try #require(record["expires_at"]?.stringValue.flatMap(WireCoding.parseDate), "\(record.keys)")
        let wait = expiresAt.timeIntervalSinceNow + 0.5
        if wait > 0 { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
    }
}
