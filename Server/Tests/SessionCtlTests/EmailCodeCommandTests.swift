import Foundation
import ProcessTesting
import SessionCore
import Testing

/// `sessionctl login --email-code` and `sessionctl reset-password` as
/// processes, against an auth-server process that mails through a real SMTP
/// listener: the code is read from the delivered message and typed in.
@Suite(.serialized)
struct EmailCodeCommandTests {
    static func withMail(
        serverArguments extra: [String] = [], _ body: (CLIHarness, MailCatcher) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mail = try await MailCatcher(directory: directory)
        try await CLIHarness.with(serverArguments: mail.serverArguments + extra) { cli in try await body(cli, mail) }
    }

    @Test func loginWithAnEmailedCode() async throws {
        try await Self.withMail { cli, mail in
            let input = try TypedInput(directory: cli.directory)
            let login = try cli.spawn(
                ["login", "--email-code", "--create-account", "--email", "ada@example.com", "--stdin", "--json"],
                stdinPath: input.path)
            input.type(try await mail.code(ofMessage: 0))
            let result = try await login.wait()
            #expect(result.status == 0, "\(result)")
            #expect(try cli.json(result)["state"] == "signedIn")
            let whoami = try await cli.run(["whoami", "--json"])
            #expect(whoami.stdout.contains("ada@example.com"), "\(whoami)")
        }
    }

    @Test func aWrongCodeIsRefusedWithItsOwnCode() async throws {
        try await Self.withMail { cli, mail in
            let input = try TypedInput(directory: cli.directory)
            let login = try cli.spawn(
                ["login", "--email-code", "--create-account", "--email", "ada@example.com", "--stdin", "--json"],
                stdinPath: input.path)
            let code = try await mail.code(ofMessage: 0)
            input.type(code == "000000" ? "000001" : "000000")
            let result = try await login.wait()
            #expect(result.status == 1, "\(result)")
            #expect((result.stdout + result.stderr).contains("CODE_INVALID"), "\(result)")
            #expect(try await cli.run(["status"]).status == 1)
        }
    }

    /// With mail on, a sign-up waits for the code mailed to it; the CLI says
    /// so, and `login --email-code --confirm-signup` takes that code without
    /// mailing a new one (a sign-in code would clear the password).
    @Test func aSignUpIsConfirmedWithTheMailedCode() async throws {
        try await Self.withMail { cli, mail in
            let signUp = try await cli.run(
                ["signup", "--email", "ada@example.com", "--password-stdin", "--json"], stdin: "ada-password-1\n")
            #expect(signUp.status == 0, "\(signUp)")
            #expect(try cli.json(signUp)["state"] == "confirmationRequired")
            let early = try await cli.run(
                ["login", "--email", "ada@example.com", "--password-stdin", "--json"], stdin: "ada-password-1\n")
            #expect(early.status == 1, "\(early)")
            #expect((early.stdout + early.stderr).contains("EMAIL_NOT_CONFIRMED"), "\(early)")
            #expect((early.stdout + early.stderr).contains("--confirm-signup"), "\(early)")
            let input = try TypedInput(directory: cli.directory)
            let confirm = try cli.spawn(
                ["login", "--email-code", "--confirm-signup", "--email", "ada@example.com", "--stdin", "--json"],
                stdinPath: input.path)
            input.type(try await mail.code(ofMessage: 0))
            let confirmed = try await confirm.wait()
            #expect(confirmed.status == 0, "\(confirmed)")
            #expect(try cli.json(confirmed)["state"] == "signedIn")
            let login = try await cli.run(
                ["login", "--email", "ada@example.com", "--password-stdin", "--profile", "phone"], stdin: "ada-password-1\n")
            #expect(login.status == 0, "\(login)")
        }
    }

    @Test func resetPasswordSignsInWithTheNewOne() async throws {
        // The sign-up is a fixture here: confirmed at once, so the first mail is the reset's.
        try await Self.withMail(serverArguments: ["--autoconfirm"]) { cli, mail in
            try await cli.signUp("ada@example.com", profile: "laptop")
            let input = try TypedInput(directory: cli.directory)
            let reset = try cli.spawn(["reset-password", "--email", "ada@example.com", "--stdin"], stdinPath: input.path)
            input.type(try await mail.code(ofMessage: 0))
            input.type("brand-new-password")
            let result = try await reset.wait()
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("Password changed"), "\(result)")
            // The laptop's session ended with the change; the new password signs in.
            #expect(try await cli.run(["refresh", "--profile", "laptop"]).status == 1)
            let login = try await cli.run(
                ["login", "--email", "ada@example.com", "--password-stdin", "--profile", "phone"], stdin: "brand-new-password\n")
            #expect(login.status == 0, "\(login)")
        }
    }
}
