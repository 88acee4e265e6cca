import Foundation
import ProcessTesting
import SessionCore
import SessionKit
import Testing

extension SessionCtlTests {
    /// The tour, command by command: outputs and exit codes, for a person and with `--json`.
    @Suite struct CommandTests {
        @Test func signUpStatusWhoamiTokenRefreshSessionsLogout() async throws {
            try await CLIHarness.with { cli in
                let signUp = try await cli.run(
                    ["signup", "--email", "ada@example.com", "--password-stdin"], stdin: "correct-horse-battery\n")
                #expect(signUp.status == 0, "\(signUp)")
                #expect(signUp.stdout.contains("signed in as ada@example.com"))

                let status = try await cli.run(["status"])
                #expect(status.status == 0, "\(status)")
                #expect(status.stdout.contains("Signed in as ada@example.com on \(cli.server.url)"))

                let whoami = try await cli.run(["whoami"])
                #expect(whoami.status == 0, "\(whoami)")
                #expect(whoami.stdout.hasPrefix("ada@example.com\n"))

                let token = try await cli.run(["token"])
                #expect(token.status == 0, "\(token)")
                let jwt = token.stdout.trimmingCharacters(in: .newlines)
                #expect(try UnverifiedJWT(jwt).claims.email == "ada@example.com")
                #expect(token.stderr.isEmpty, "token's output must stay clean for scripts: \(token.stderr)")

                let refresh = try await cli.run(["refresh"])
                #expect(refresh.status == 0, "\(refresh)")
                #expect(refresh.stdout.hasPrefix("Refreshed"))
                let newToken = try await cli.run(["token"])
                #expect(newToken.stdout.trimmingCharacters(in: .newlines) != jwt)

                // --verbose shows the SDK's log on standard error, tokens redacted.
                let verbose = try await cli.run(["refresh", "--verbose"])
                #expect(verbose.status == 0, "\(verbose)")
                #expect(verbose.stderr.contains("Refreshed the session"), "\(verbose)")
                let saved = try Data(contentsOf: URL(fileURLWithPath: cli.profileDirectory() + "/session.json"))
                let record = try WireCoding.decoder().decode([String: JSONValue].self, from: saved)
                for key in ["access_token", "refresh_token"] {
                    let secret = try #require(record[key]?.stringValue)
                    #expect(!verbose.stderr.contains(secret.suffix(16)), "\(key) leaked into the log")
                    #expect(!verbose.stdout.contains(secret.suffix(16)), "\(key) leaked into the output")
                }

                // A second device: two rows, this one marked.
                let login = try await cli.run(
                    ["login", "--email", "ada@example.com", "--profile", "laptop"],
                    environment: ["SESSIONKIT_PASSWORD": "correct-horse-battery"])
                #expect(login.status == 0, "\(login)")
                let sessions = try await cli.run(["sessions"])
                #expect(sessions.status == 0, "\(sessions)")
                let rows = sessions.stdout.split(separator: "\n").dropFirst()
                #expect(rows.count == 2)
                #expect(rows.filter { $0.hasPrefix("*") }.count == 1)

                let logout = try await cli.run(["logout"])
                #expect(logout.status == 0, "\(logout)")
                // What stays is the sign-out's record: no token, only the sequence (docs/PROTOCOL.md).
                let left = try await FileSessionStore(directory: URL(fileURLWithPath: cli.profileDirectory())).load()
                #expect(left?.holdsSession != true)
                let text = (try? String(contentsOfFile: cli.profileDirectory() + "/session.json", encoding: .utf8)) ?? ""
                #expect(!text.contains("eyJ"), "a token stayed on disk after logout")
                for command in ["status", "whoami", "token", "refresh", "sessions"] {
                    let after = try await cli.run([command])
                    #expect(after.status == 1, "\(command): \(after)")
                    #expect(after.stderr == "Not signed in — run `sessionctl login`\n", "\(command): \(after)")
                }
                // The other profile is untouched.
                #expect(try await cli.run(["whoami", "--profile", "laptop"]).status == 0)
            }
        }

        @Test func jsonOutputForEveryCommand() async throws {
            try await CLIHarness.with { cli in
                let signUp = try cli.json(
                    try await cli.run(
                        ["signup", "--json", "--email", "bo@example.com", "--password-stdin"], stdin: "correct-horse-battery\n"))
                #expect(signUp["state"] == "signedIn")
                #expect(signUp["email"] == "bo@example.com")

                let login = try cli.json(
                    try await cli.run(
                        ["login", "--json", "--email", "bo@example.com", "--password-stdin"], stdin: "correct-horse-battery\n"))
                #expect(login["email"] == "bo@example.com")

                let status = try cli.json(try await cli.run(["status", "--json"]))
                #expect(status["state"] == "signedIn")
                #expect(status["profile"] == "default")
                #expect(status["server"] == .string(cli.server.url))

                let whoami = try cli.json(try await cli.run(["whoami", "--json"]))
                guard case .object(let user)? = whoami["user"] else {
                    Issue.record("no user object: \(whoami)")
                    return
                }
                #expect(user["email"] == "bo@example.com")

                let token = try cli.json(try await cli.run(["token", "--json"]))
                #expect(token["access_token"]?.stringValue?.isEmpty == false)
                #expect(token["expires_at"]?.stringValue.flatMap(WireCoding.parseDate) != nil)

                let refresh = try cli.json(try await cli.run(["refresh", "--json"]))
                #expect(refresh["state"] == "signedIn")

                let sessions = try cli.json(try await cli.run(["sessions", "--json"]))
                guard case .array(let rows)? = sessions["sessions"] else {
                    Issue.record("no sessions array: \(sessions)")
                    return
                }
                #expect(rows.count == 2)

                let logout = try cli.json(try await cli.run(["logout", "--json", "--all"]))
                #expect(logout["signed_out"] == true)

                let after = try await cli.run(["token", "--json"])
                #expect(after.status == 1)
                guard case .object(let error)? = try cli.json(after)["error"] else {
                    Issue.record("no error object: \(after)")
                    return
                }
                #expect(error["code"] == "NOT_SIGNED_IN")
            }
        }

        @Test func sessionFilesArePrivate() async throws {
            try await CLIHarness.with { cli in
                try await cli.signUp()
                let attributes = try FileManager.default.attributesOfItem(atPath: cli.profileDirectory() + "/session.json")
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
                let folder = try FileManager.default.attributesOfItem(atPath: cli.profileDirectory())
                #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            }
        }
    }
}
