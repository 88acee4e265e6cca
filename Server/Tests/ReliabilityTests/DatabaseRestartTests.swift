import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SQLKit
import SessionCore
import SessionKit
import SessionKitFaultProxy
import SessionKitTesting
import SessionServer
import SessionSimulation
import Testing

/// PostgreSQL drops the server's connections (as in a restart or failover)
/// while clients refresh: no family is left half-rotated, no client is signed
/// out, no reuse is detected.
///
/// Only this server's backends are terminated (`pg_terminate_backend` on the
/// pids its pool holds), so the PostgreSQL tests running beside it are unharmed.
///
/// Its first version hung: postgres-nio discarded statements written to a
/// connection that had already closed, so the request never completed (fixed
/// in the server by `LiveConnectionDatabase`; see docs/RELIABILITY.md).
struct DatabaseRestartTests {
    static let postgresURL = ProcessInfo.processInfo.environment["SESSIONKIT_TEST_POSTGRES_URL"]

    @Test func droppedDatabaseConnectionsUnderRefreshLoadLeaveEveryClientSignedIn() async throws {
        let clock = ManualClock()
        guard let configuration = Self.configuration(clock: clock) else { return }
        let server = try await AuthServer(configuration: configuration, logger: Self.quiet)
        try await server.withRunningServer { baseURL in
            let fleet = RefreshFleet(baseURL: baseURL, clock: clock, serverClock: clock, logger: Self.quiet)
            try await fleet.signUp(count: 6)

            var terminated = 0
            var tally = RefreshFleet.Tally()
            for _ in 0..<3 {
                // Every client refreshes in a loop while the database drops the server's connections.
                async let load = fleet.refreshRepeatedly(times: 8)
                do {
                    terminated += try await Self.terminateServerBackends(server)
                } catch {
                    Issue.record("terminating the server's backends failed: \(String(reflecting: error))")
                }
                tally = tally + (await load)
            }
            print("DatabaseRestartTests: \(terminated) backends terminated; refreshes: \(tally)")
            #expect(terminated > 0, "the test must really drop connections")
            #expect(tally.other.isEmpty, "refreshes failed other than transiently: \(tally.other.prefix(3))")
            // The server answers 503 at once; a client-side timeout means a request hung on a dropped connection.
            #expect(tally.transientKinds["network"] == nil, "requests timed out: the server hung on a dropped connection")
            try await Self.expectEveryoneSignedIn(fleet, store: server.store)
        }
    }

    /// The auth server itself stops (graceful shutdown) and a new one starts on
    /// the same database while clients refresh: requests in the gap fail as
    /// `network` errors, nobody is signed out, no family is half-rotated.
    ///
    /// The clients know the address of a `FaultProxy` (as they would know a load
    /// balancer's), and the new server listens on a new port behind it: rebinding
    /// the old port raced the clients' own connection attempts, since on Linux a
    /// connect to a free local port can take that port itself.
    @Test func restartingTheAuthServerUnderRefreshLoadLeavesEveryClientSignedIn() async throws {
        let clock = ManualClock()
        guard let configuration = Self.configuration(clock: clock) else { return }
        let first = try await AuthServer(configuration: configuration, logger: Self.quiet)
        let gate = RefreshFleet.LoadGate()
        let (fleet, load, proxy) = try await first.withRunningServer { baseURL in
            let proxy = try await FaultProxy.start(upstream: baseURL, plan: .none)
            let fleet = RefreshFleet(baseURL: proxy.url, clock: clock, serverClock: clock, logger: Self.quiet)
            try await fleet.signUp(count: 6)
            let load = Task { await fleet.refreshUntilStopped(gate) }
            // Stop the server mid-load: after some refreshes have gone through it.
            await gate.waitForSuccesses(12)
            return (fleet, load, proxy)
        }
        let beforeRestart = await gate.successes
        let second = try await AuthServer(configuration: configuration, logger: Self.quiet)
        do {
            try await second.withRunningServer { newURL in
                try proxy.setUpstream(newURL)
                await gate.waitForSuccesses(beforeRestart + 12)
                await gate.stop()
                let tally = await load.value
                print("DatabaseRestartTests: auth server restarted behind the proxy; refreshes: \(tally)")
                #expect(tally.transientKinds["network", default: 0] > 0, "the restart must really interrupt refreshes")
                #expect(tally.other.isEmpty, "refreshes failed other than transiently: \(tally.other.prefix(3))")
                try await Self.expectEveryoneSignedIn(fleet, store: second.store)
            }
        } catch {
            await proxy.shutdown()
            throw error
        }
        await proxy.shutdown()
    }

    // MARK: Support

    static let quiet = {
        var logger = Logger(label: "restart-test")
        logger.logLevel = .critical
        return logger
    }()

    /// A server on a fresh schema, or `nil` (test skipped, reason printed) without PostgreSQL.
    static func configuration(clock: ManualClock) -> AuthServerConfiguration? {
        guard let base = postgresURL else {
            print("⚠️ SESSIONKIT_TEST_POSTGRES_URL is not set: the database restart test is skipped (run `eval \"$(bash .ci/postgres.sh)\"`).")
            return nil
        }
        let schema = "rel_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        var configuration = AuthServerConfiguration.testing(
            clock: clock, database: .postgres(url: base + (base.contains("?") ? "&" : "?") + "schema=" + schema))
        configuration.tokenRequestsPerMinutePerIP = 1_000_000
        return configuration
    }

    /// Every client is still signed in and can refresh; on the server, each
    /// family has exactly one active token, chained, and none is revoked.
    static func expectEveryoneSignedIn(_ fleet: RefreshFleet, store: AuthStore) async throws {
        try await fleet.refreshUntilSuccess()
        for client in fleet.clients { #expect(client.currentState.isSignedIn) }
        let sessionIDs = try await fleet.sessionIDs()
        #expect(sessionIDs.count == fleet.clients.count)
        await fleet.shutdown()
        #expect(await fleet.logouts() == 0)

        for sessionID in sessionIDs {
            let session = try #require(try await store.session(id: sessionID))
            #expect(!session.isRevoked, "family \(sessionID.prefix(8)) revoked: \(session.revokedReason ?? "")")
            let tokens = try await store.refreshTokens(sessionID: sessionID)
            let active = tokens.filter { $0.rotatedAt == nil }
            #expect(active.count == 1, "family \(sessionID.prefix(8)) has \(active.count) active tokens")
            #expect(active.first?.tokenHash == session.activeTokenHash)
            #expect(tokens.filter { $0.rotatedAt != nil }.allSatisfy { $0.successorHash != nil })
        }
    }

    /// Terminates the backends this server's pool holds (found by asking each connection its pid).
    static func terminateServerBackends(_ server: AuthServer) async throws -> Int {
        let pids = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        return try await server.store.withTransaction { db in
                            // Overlap the probes so they spread over the pool's connections.
                            try await db.raw("SELECT pg_backend_pid() AS pid, pg_sleep(0.02)").first()?
                                .decode(column: "pid", as: Int.self)
                        }
                    } catch {
                        return nil  // a connection being re-established right now
                    }
                }
            }
            var found = Set<Int>()
            for try await pid in group { if let pid { found.insert(pid) } }
            return found
        }
        return try await server.store.withTransaction { db in
            // Never this probe's own backend: PostgreSQL may evaluate a WHERE
            // clause's conditions in any order, so `pid <> pg_backend_pid() AND
            // pg_terminate_backend(pid)` can still terminate itself.
            let own = try await db.raw("SELECT pg_backend_pid() AS pid").first()?.decode(column: "pid", as: Int.self)
            let list = pids.subtracting([own].compactMap { $0 }).map(String.init).joined(separator: ",")
            guard !list.isEmpty else { return 0 }
            return try await db.raw(
                """
                SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n
                FROM pg_stat_activity WHERE pid IN (\(unsafeRaw: list))
                """
            ).first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }
}
