import Foundation
import ProcessTesting
import SessionCore
import Testing

extension SessionCtlTests {
    /// Messages a person can act on, with the documented exit codes; never a stack trace.
    @Suite struct FailureTests {
        static let expiredMessage = "Your session has expired. Please sign in again.\n"
        static let unreachableMessage = "Server unreachable — you are still signed in; will retry\n"

        @Test func usageErrorsExitTwo() async throws {
            try await CLIHarness.with { cli in
                // No terminal to prompt on: the email must be a flag.
                let noEmail = try await cli.run(["login", "--password-stdin"], stdin: "x\n")
                #expect(noEmail.status == 2, "\(noEmail)")
                #expect(noEmail.stderr.contains("--email"))
                // No terminal and no --password-stdin or SESSIONKIT_PASSWORD.
                let noPassword = try await cli.run(["login", "--email", "ada@example.com"])
                #expect(noPassword.status == 2, "\(noPassword)")
                #expect(noPassword.stderr.contains("--password-stdin"))
                // The password is never a flag value.
                #expect(try await cli.run(["login", "--email", "a@b.c", "--password", "secret"]).status == 2)
                #expect(try await cli.run(["frobnicate"]).status == 2)
                #expect(try await cli.run(["token", "--server", "ftp://example.com"]).status == 2)
                #expect(try await cli.run(["token", "--profile", "../escape"]).status == 2)
            }
        }

        @Test func wrongPasswordIsRefused() async throws {
            try await CLIHarness.with { cli in
                try await cli.signUp()
                let login = try await cli.run(
                    ["login", "--email", "ada@example.com", "--password-stdin", "--profile", "other"], stdin: "wrong-password\n")
                #expect(login.status == 1, "\(login)")
                #expect(login.stderr.contains("email or password is not correct"))
            }
        }

        /// The server ends the session (signed out everywhere from another copy):
        /// `whoami` learns it from the server, `token` from the refresh.
        @Test func revokedSessionIsReportedAsExpired() async throws {
            try await CLIHarness.with(accessTokenTTL: 2) { cli in
                try await cli.signUp()
                try cli.copyProfile("default", to: "copy")
                try cli.copyProfile("default", to: "scripts")
                #expect(try await cli.run(["logout", "--all", "--profile", "copy"]).status == 0)

                let whoami = try await cli.run(["whoami"])
                #expect(whoami.status == 1, "\(whoami)")
                #expect(whoami.stderr == Self.expiredMessage, "\(whoami)")
                // The dead session is gone from the store: next time, "not signed in".
                #expect(try await cli.run(["status"]).status == 1)

                try await cli.waitUntilExpired(profile: "scripts")
                let token = try await cli.run(["token", "--profile", "scripts"])
                #expect(token.status == 1, "\(token)")
                #expect(token.stderr == Self.expiredMessage, "\(token)")
                #expect(token.stdout.isEmpty)
            }
        }

        /// The server goes away while the token is expired: exit 3, and the
        /// session survives for when it is back.
        @Test func unreachableServerKeepsTheSession() async throws {
            try await CLIHarness.with(accessTokenTTL: 2) { cli in
                try await cli.signUp()
                try await cli.waitUntilExpired()
                await cli.server.stop()

                let token = try await cli.run(["token"])
                #expect(token.status == 3, "\(token)")
                #expect(token.stderr == Self.unreachableMessage, "\(token)")
                #expect(token.stdout.isEmpty)

                let json = try cli.json(try await cli.run(["token", "--json"]))
                guard case .object(let error)? = json["error"] else {
                    Issue.record("no error object: \(json)")
                    return
                }
                #expect(error["code"] == "UNREACHABLE")
                #expect(FileManager.default.fileExists(atPath: cli.profileDirectory() + "/session.json"))

                let status = try await cli.run(["status"])
                #expect(status.status == 3, "\(status)")
                #expect(status.stdout.contains("Signed in as ada@example.com"))
            }
        }

        @Test func unreachableServerBeforeSignInSaysSo() async throws {
            try await CLIHarness.with { cli in
                await cli.server.stop()
                let login = try await cli.run(
                    ["login", "--email", "ada@example.com", "--password-stdin"], stdin: "correct-horse-battery\n")
                #expect(login.status == 3, "\(login)")
                #expect(login.stderr.contains("Server unreachable"))
                #expect(!login.stderr.contains("still signed in"))
            }
        }
    }
}
