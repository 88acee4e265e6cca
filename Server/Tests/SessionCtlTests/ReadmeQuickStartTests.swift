import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit
import Testing

extension SessionCtlTests {
    /// The README's SDK quick start, as written there, against a live server:
    /// if the API drifts from the README, this stops compiling or fails.
    @Suite struct ReadmeQuickStartTests {
        @Test func quickStartRunsAsDocumented() async throws {
            try await CLIHarness.with { cli in
                try await cli.signUp("ada@example.com", profile: "cli")
                let server = cli.server.url

                // From here to `signOut`, the README's code with the server URL and folder filled in.
                let client = SessionClient(configuration: .init(
                    backend: .goTrue(url: URL(string: server)!),
                    store: FileSessionStore(directory: URL(fileURLWithPath: cli.directory + "/myapp"))
                ))

                switch try await client.restore() {
                case .signedIn, .offline, .needsAttention, .expired: Issue.record("a fresh folder holds no session")
                case .signedOut, .restoring, .locked: break
                }

                try await client.signIn(email: "ada@example.com", password: "correct-horse-battery")

                let (data, _) = try await client.send(URLRequest(url: URL(string: server + "/v1/auth/me")!))
                #expect(String(decoding: data, as: UTF8.self).contains("ada@example.com"))

                let token = try await client.accessToken()
                #expect(!token.isEmpty)

                let events = client.events
                try await client.signOut()
                await client.shutdown()
                var sawSignedOut = false
                for await event in events where event == .signedOut { sawSignedOut = true }
                #expect(sawSignedOut)
                #expect(client.currentState == .signedOut)
            }
        }
    }
}
