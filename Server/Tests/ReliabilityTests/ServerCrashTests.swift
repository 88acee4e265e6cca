import Foundation
import Logging
import ProcessTesting
import SessionKitFaultProxy
import SessionKitTesting
import SessionServer
import Testing

/// The auth server dies with SIGKILL (a crash, the OOM killer, a container
/// stopped past its grace) while clients refresh, three times or more, and starts
/// again on the same SQLite file, the embedded default: no family is left
/// half-rotated, nobody is signed out, no reuse is detected.
///
/// A refresh in flight at the kill either committed or did not: SQLite's
/// transaction is all or nothing. When it committed but its answer was lost,
/// the client still holds the parent token, and the restarted server hands it
/// the same successor (within the grace, or as the successor never saved).
///
/// The graceful stop and PostgreSQL's dropped connections are in
/// `DatabaseRestartTests`; this is the stop with no shutdown at all.
@Suite(.timeLimit(.minutes(5)))
struct ServerCrashTests {
    /// `SESSIONKIT_SERVER_KILLS`: kills in one run (CI 3; docs/RELIABILITY.md has a 100-kill run).
    static let kills = ProcessInfo.processInfo.environment["SESSIONKIT_SERVER_KILLS"].flatMap(Int.init) ?? 3
    /// Successful refreshes between kills, so each kill lands on a loaded server.
    static let successesPerRound = 12

    @Test func killingTheAuthServerUnderRefreshLoadLeavesEveryClientSignedIn() async throws {
        let missing = Binaries.missing([Binaries.authServer])
        try #require(missing == nil, "\(missing ?? "")")
        let folder = try Binaries.temporaryFolder("server-crash")
        let database = folder.appendingPathComponent("auth.sqlite").path
        let arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--database", database]

        var server = try await AuthServerChild(arguments: arguments, directory: folder.path)
        // The clients know the proxy's address, as they would a load balancer's;
        // each new server listens on a new port behind it.
        try await FaultProxy.withProxy(upstream: server.url, plan: .none) { proxy in
            // The server runs on real time in its own process: so do the clients' tokens.
            let fleet = RefreshFleet(
                baseURL: proxy.url, clock: ManualClock(start: Date()), serverClock: nil,
                logger: DatabaseRestartTests.quiet)
            let gate = RefreshFleet.LoadGate()
            try await fleet.signUp(count: 6)
            let load = Task { await fleet.refreshUntilStopped(gate) }
            var recovered = 0
            for _ in 0..<Self.kills {
                await gate.waitForSuccesses(await gate.successes + Self.successesPerRound)
                recovered += try await Self.recoveredRefreshes(server)
                server.kill()
                server = try await AuthServerChild(arguments: arguments, directory: folder.path)
                try proxy.setUpstream(server.url)
            }
            await gate.waitForSuccesses(await gate.successes + Self.successesPerRound)
            await gate.stop()
            let tally = await load.value
            recovered += try await Self.recoveredRefreshes(server)
            print(
                "ServerCrashTests: auth-server killed \(Self.kills) times under load; refreshes: \(tally); "
                    + "\(recovered) recovered a successor committed just before a kill")
            #expect(tally.transientKinds["network", default: 0] > 0, "the kills must really interrupt refreshes")
            #expect(tally.other.isEmpty, "refreshes failed other than transiently: \(tally.other.prefix(3))")

            // The families, read from the file the killed servers wrote.
            let store = try await AuthStore.open(.sqlite(path: database), logger: DatabaseRestartTests.quiet)
            // The store closes its SQLite connection when its service task ends.
            let storeService = Task { try await store.run() }
            try await DatabaseRestartTests.expectEveryoneSignedIn(fleet, store: store)
            storeService.cancel()
            try await storeService.value
            #expect(try await server.terminate() == 0)
            // Every server's log, the killed ones' included: none saw a reuse.
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".log") {
                let log = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                #expect(!log.contains("reuse detected"), "\(name): \(log.suffix(2000))")
            }
        }
        try FileManager.default.removeItem(at: folder)
    }

    /// Refreshes `server` answered with a successor already committed: the
    /// client's earlier try rotated, and its answer never arrived.
    static func recoveredRefreshes(_ server: AuthServerChild) async throws -> Int {
        let outcomes = try await server.refreshOutcomes()
        return outcomes[RefreshOutcome.replayedWithinGrace.rawValue, default: 0]
            + outcomes[RefreshOutcome.recoveredUnsavedSuccessor.rawValue, default: 0]
    }
}
