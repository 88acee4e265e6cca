import Foundation
import ProcessTesting
import SessionCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SessionCtlTests {
    @Suite struct WatchTests {
        /// `watch` refreshes proactively, prints it with a timestamp, and
        /// stops cleanly on Ctrl-C.
        @Test func printsProactiveRefreshAndStopsOnInterrupt() async throws {
            try await CLIHarness.with(accessTokenTTL: 3) { cli in
                try await cli.signUp()
                let watch = try cli.spawn(["watch", "--json"])
                do {
                    let lines = try await Self.waitForLine(in: watch) { $0["name"] == "tokenRefreshed" }
                    #expect(lines.first?["type"] == "state")
                    #expect(lines.first?["name"] == "signedIn")
                    #expect(lines.allSatisfy { $0["time"]?.stringValue.flatMap(WireCoding.parseDate) != nil })
                } catch {
                    watch.killAndReap()
                    throw error
                }
                watch.send(SIGINT)
                let result = try await watch.wait()
                #expect(result.status == 0, "\(result)")
            }
        }

        /// The server goes away and comes back while watching: `offline`, then
        /// `online` with a refreshed token, and the person stays signed in.
        @Test func reportsOfflineAndBackOnline() async throws {
            try await CLIHarness.with(accessTokenTTL: 3) { cli in
                try await cli.signUp()
                let watch = try cli.spawn(["watch", "--json"])
                let restarted = try await Self.killingOnFailure(watch) {
                    _ = try await Self.waitForLine(in: watch) { $0["type"] == "state" && $0["name"] == "signedIn" }
                    await cli.server.stop()
                    _ = try await Self.waitForLine(in: watch) { $0["type"] == "event" && $0["name"] == "offline" }
                    return try await AuthServerProcess(accessTokenTTL: 3, directory: cli.directory, port: cli.server.port)
                }
                do {
                    let lines = try await Self.killingOnFailure(watch) {
                        try await Self.waitForLine(in: watch) { $0["name"] == "online" }
                    }
                    #expect(!lines.contains { $0["name"] == "expired" || $0["name"] == "sessionExpired" })
                    watch.send(SIGINT)
                    let result = try await watch.wait()
                    #expect(result.status == 0, "\(result)")
                } catch {
                    await restarted.stop()
                    throw error
                }
                await restarted.stop()
            }
        }

        /// Runs `body`; if it throws, kills and reaps `child` first.
        static func killingOnFailure<T>(_ child: ChildProcess, _ body: () async throws -> T) async throws -> T {
            do {
                return try await body()
            } catch {
                child.killAndReap()
                throw error
            }
        }

        /// The session ends on the server while watching: `watch` says so and exits 1.
        @Test func reportsExpiryAndExits() async throws {
            try await CLIHarness.with(accessTokenTTL: 2) { cli in
                try await cli.signUp()
                try cli.copyProfile("default", to: "copy")
                let watch = try cli.spawn(["watch"])
                do {
                    #expect(try await cli.run(["logout", "--all", "--profile", "copy"]).status == 0)
                    let result = try await watch.wait()
                    #expect(result.status == 1, "\(result)")
                    #expect(result.stdout.contains("session expired"), "\(result)")
                    #expect(result.stderr.hasSuffix("Your session has expired. Please sign in again.\n"), "\(result)")
                } catch {
                    watch.killAndReap()
                    throw error
                }
            }
        }

        /// Polls `watch`'s JSON lines until one matches (at most 20 s); returns them all.
        static func waitForLine(
            in child: ChildProcess, where matches: ([String: JSONValue]) -> Bool
        ) async throws -> [[String: JSONValue]] {
            try await child.waitFor("matching JSON line", limit: .seconds(20)) {
                // Whole lines only: the last one may be half written.
                let stdout = child.stdout
                let whole = stdout[..<(stdout.lastIndex(of: "\n") ?? stdout.startIndex)]
                let lines = try whole.split(separator: "\n").map {
                    try WireCoding.decoder().decode([String: JSONValue].self, from: Data($0.utf8))
                }
                return lines.contains(where: matches) ? lines : nil
            }
        }
    }
}
