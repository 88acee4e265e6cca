import Foundation
import ProcessTesting
import Testing

extension SessionCtlTests {
    /// `--server` pointed at a GoTrue server without the `/v1` gateway, as a hosted Supabase project is.
    @Suite struct HostedSupabaseTests {
        @Test func gatewayCommandsExplainAMissingGateway() async throws {
            try await CLIHarness.with { cli in
                let supabase = try GoTrueOnlyServer()
                defer { supabase.stop() }
                let flags = ["--server", supabase.url, "--api-key", "anon-key", "--profile", "hosted"]

                let login = try await cli.run(["login", "--email", "ada@example.com", "--password-stdin"] + flags, stdin: "pw\n")
                #expect(login.status == 0, "\(login)")

                // The profile remembers the server and key: no flags from here on.
                let noServer = ["SESSIONKIT_SERVER": ""]
                let whoami = try await cli.run(["whoami", "--profile", "hosted"], environment: noServer)
                #expect(whoami.status == 0, "\(whoami)")
                #expect(whoami.stdout.hasPrefix("ada@example.com\n"))
                #expect(whoami.stderr.contains("no SessionKit gateway"), "\(whoami)")

                let sessions = try await cli.run(["sessions", "--profile", "hosted"], environment: noServer)
                #expect(sessions.status == 4, "\(sessions)")
                #expect(sessions.stderr.contains("no SessionKit gateway"), "\(sessions)")
                #expect(try await cli.run(["status", "--profile", "hosted"], environment: noServer).status == 0)

                let lines = supabase.received.map(\.line)
                #expect(lines.contains { $0.hasPrefix("GET /v1/auth/me") })
                #expect(lines.contains { $0.hasPrefix("GET /auth/v1/user") })
                #expect(supabase.received.allSatisfy { $0.apiKey == "anon-key" })
            }
        }
    }
}
