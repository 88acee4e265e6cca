import Foundation
import ProcessTesting

/// A live `auth-server` on a free port with its own SQLite file, for `sessionctl`.
final class AuthServerProcess: Sendable {
    let child: AuthServerChild
    var port: Int { child.port }
    var url: String { child.url.absoluteString }

    /// Starts the server and waits (at most 30 s) for its "listening on" line.
    ///
    /// - Parameters:
    ///   - accessTokenTTL: short lifetimes make tokens expire in real time.
    ///   - port: 0 picks a free one; a restart passes the previous one.
    ///   - extraArguments: more `serve` flags (mail, say).
    init(accessTokenTTL: Int, directory: String, port requestedPort: Int = 0, extraArguments: [String] = []) async throws {
        child = try await AuthServerChild(
            arguments: [
                "serve", "--port", String(requestedPort), "--database", directory + "/auth.sqlite",
                "--access-token-ttl", String(accessTokenTTL), "--leeway", "1",
            ] + extraArguments,
            directory: directory, environment: ["PATH": "/usr/bin:/bin", "HOME": directory],
            output: .separate(in: directory, for: Binaries.authServer))
    }

    /// Every refresh the server answered, whatever the outcome, from `/metrics`.
    func refreshCount() async throws -> Int {
        try await child.refreshOutcomes().values.reduce(0, +)
    }

    /// SIGTERM, then SIGKILL if it lingers (10 s); always reaped.
    func stop() async {
        do {
            _ = try await child.terminate(limit: .seconds(10))
        } catch {
            // `terminate` already killed and reaped it; a slow shutdown is not what these tests check.
        }
    }
}
