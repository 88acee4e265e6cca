import Foundation
import ProcessTesting
import Testing

extension SessionCtlTests {
    /// Scripts run many `sessionctl` processes on one profile at once.
    @Suite struct ConcurrencyTests {
        /// Eight `token` processes find the same expired token: the store's lock
        /// lets one refresh, the others adopt its session. One refresh on the
        /// server, no reuse error, everyone prints the same new token.
        @Test func eightConcurrentTokensAtExpiryRefreshOnce() async throws {
            // 5 s: after the refresh, the new token stays valid long enough for
            // all eight processes to start even on a busy two-core machine.
            try await CLIHarness.with(accessTokenTTL: 5) { cli in
                try await cli.signUp()
                let before = try await cli.run(["token"]).stdout
                try await cli.waitUntilExpired()
                let refreshesBefore = try await cli.server.refreshCount()

                let children = try (0..<8).map { _ in try cli.spawn(["token"]) }
                var results: [ProcessResult] = []
                do {
                    for child in children { results.append(try await child.wait()) }
                } catch {
                    children.forEach { $0.killAndReap() }
                    throw error
                }

                for result in results {
                    #expect(result.status == 0, "\(result)")
                    #expect(result.stderr.isEmpty, "\(result)")
                    #expect(!result.stdout.contains("already"), "\(result)")
                }
                let tokens = Set(results.map(\.stdout))
                #expect(tokens.count == 1, "every process prints the one refreshed token")
                #expect(!tokens.contains(before))
                #expect(try await cli.server.refreshCount() - refreshesBefore == 1)
            }
        }
    }
}
