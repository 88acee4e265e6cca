import Foundation
import Logging
import ProcessTesting
import SessionKitFaultProxy
import SessionKitTesting
import SessionServer
import Testing

/// The auth server dies with SIGKILL at the worst moment, on purpose rather
/// than by chance: the proxy kills it the instant a refresh's response head
/// arrives. The rotation is committed; its answer never leaves. The client
/// still holds the parent token, and the restarted server must hand it the
/// committed successor instead of detecting a reuse.
///
/// `ServerCrashTests` kills at random moments under load, where a committed
/// rotation in flight is a matter of luck (0 to 3 per 3 kills); here every
/// kill is one (docs/RELIABILITY.md, "The auth server killed with SIGKILL").
@Suite(.timeLimit(.minutes(5)))
struct ServerKillOnResponseHeadTests {
    /// `SESSIONKIT_HEAD_KILLS`: kills in one run (CI 3).
    static let kills = ProcessInfo.processInfo.environment["SESSIONKIT_HEAD_KILLS"].flatMap(Int.init) ?? 3

    @Test func aServerKilledAfterCommittingARotationLosesNoSession() async throws {
        try await Self.withKills(serverArguments: [], answeredAs: Self.recoveries) { run in
            // Every kill left one client with the parent of a committed successor; it got it back.
            #expect(run.answeredAfterKill.count == Self.kills && run.answeredAfterKill.allSatisfy { $0 >= 1 })
            #expect(run.tally.other.isEmpty, "refreshes failed other than transiently: \(run.tally.other.prefix(3))")
            try await DatabaseRestartTests.expectEveryoneSignedIn(run.fleet, store: run.store)
        }
    }

    /// The same kills against a server without successor recovery and with
    /// no grace, as some backends run: the harness must see sessions end, and
    /// each end must be one of the lost answers, never anything else.
    @Test func withoutSuccessorRecoveryOnlyTheLostAnswersEndSessions() async throws {
        let arguments = ["--refresh-grace", "0", "--no-successor-recovery"]
        try await Self.withKills(serverArguments: arguments, answeredAs: ["refreshTokenAlreadyUsed"]) { run in
            #expect(run.answeredAfterKill.count == Self.kills && run.answeredAfterKill.allSatisfy { $0 >= 1 })
            try await run.fleet.refreshUntilSettled()
            // The logout counts are final once the clients' event streams end.
            await run.fleet.shutdown()
            let logouts = await run.fleet.logouts()
            #expect(logouts >= Self.kills, "each kill ends the session whose answer it lost")
            // A client whose session ended keeps asking, and hears that it ended; nothing else.
            let ends = ["SessionError.sessionExpired", "SessionError.notSignedIn"]
            #expect(
                run.tally.other.allSatisfy { failure in ends.contains { failure.hasPrefix($0) } },
                "\(run.tally.other.prefix(3))")
            var ended = 0
            for sessionID in run.sessionIDs {
                let session = try #require(try await run.store.session(id: sessionID))
                let tokens = try await run.store.refreshTokens(sessionID: sessionID)
                let active = try #require(tokens.first { $0.tokenHash == session.activeTokenHash })
                guard session.isRevoked else {
                    #expect(tokens.filter { $0.rotatedAt == nil }.count == 1)
                    continue
                }
                ended += 1
                #expect(session.revokedReason == "reuse")
                // Its last successor was never used, and was committed just before a kill: a lost answer.
                #expect(active.rotatedAt == nil)
                #expect(
                    run.killedAt.contains { active.createdAt <= $0.addingTimeInterval(0.1) && active.createdAt >= $0.addingTimeInterval(-1) },
                    "family \(sessionID.prefix(8)): successor made at \(active.createdAt), kills at \(run.killedAt)")
            }
            #expect(ended == logouts, "\(ended) families ended, \(logouts) logouts")
            print("ServerKillOnResponseHeadTests without recovery: \(logouts) logouts, \(ended) families ended, each on a lost answer")
        }
    }

    static let recoveries = [RefreshOutcome.replayedWithinGrace.rawValue, RefreshOutcome.recoveredUnsavedSuccessor.rawValue]

    /// What one run saw, for the test's own checks.
    struct Run {
        let fleet: RefreshFleet
        let store: AuthStore
        let tally: RefreshFleet.Tally
        /// Every client's session, read before the first kill.
        let sessionIDs: [String]
        /// Per kill: how many refreshes the next server answered as `answeredAs` once it had any.
        let answeredAfterKill: [Int]
        let killedAt: [Date]
    }

    /// Six clients refresh through a proxy; `kills` times, the next refresh
    /// request kills the server on its response head, a new server starts on
    /// the same SQLite file, and the run waits until that server answered a
    /// refresh with one of `answeredAs` (the interrupted client coming back).
    static func withKills(
        serverArguments: [String], answeredAs outcomes: [String], _ check: (Run) async throws -> Void
    ) async throws {
        let missing = Binaries.missing([Binaries.authServer])
        try #require(missing == nil, "\(missing ?? "")")
        let folder = try Binaries.temporaryFolder("head-kill")
        let database = folder.appendingPathComponent("auth.sqlite").path
        let arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--database", database] + serverArguments

        let current = CurrentServer(try await AuthServerChild(arguments: arguments, directory: folder.path))
        // A failed expectation must not leave a server running (the proxy's shutdown would wait on it).
        defer { current.server.kill() }
        let trigger = OneShot()
        let plan = FaultPlan { request in
            let isRefresh = request.method == "POST" && request.target.contains("grant_type=refresh_token")
            return isRefresh && trigger.fire() ? .killUpstreamOnResponseHead : nil
        }
        let (killed, killedContinuation) = AsyncStream<Date>.makeStream()
        try await FaultProxy.withProxy(upstream: current.server.url, plan: plan) { proxy in
            proxy.setUpstreamKiller {
                current.server.kill()
                killedContinuation.yield(Date())
            }
            let fleet = RefreshFleet(
                baseURL: proxy.url, clock: ManualClock(start: Date()), serverClock: nil,
                logger: DatabaseRestartTests.quiet)
            let gate = RefreshFleet.LoadGate()
            try await fleet.signUp(count: 6)
            let sessionIDs = try await fleet.sessionIDs()
            let load = Task { await fleet.refreshUntilStopped(gate) }
            var kills = killed.makeAsyncIterator()
            var answered: [Int] = []
            var killedAt: [Date] = []
            for _ in 0..<Self.kills {
                await gate.waitForSuccesses(await gate.successes + 12)
                trigger.arm()
                killedAt.append(try #require(await kills.next()))
                let next = try await AuthServerChild(arguments: arguments, directory: folder.path)
                current.server = next
                try proxy.setUpstream(next.url)
                answered.append(try await Self.waitForAnAnswer(next, outcomes))
            }
            await gate.waitForSuccesses(await gate.successes + 12)
            await gate.stop()
            let tally = await load.value
            print(
                "ServerKillOnResponseHeadTests \(serverArguments): auth-server killed \(Self.kills) times on a refresh's "
                    + "response head; refreshes: \(tally); after each kill, answered as \(outcomes): \(answered)")
            #expect(proxy.statistics.faults[ProxyFault.killUpstreamOnResponseHead.name] == Self.kills)

            let store = try await AuthStore.open(.sqlite(path: database), logger: DatabaseRestartTests.quiet)
            let storeService = Task { try await store.run() }
            try await check(Run(fleet: fleet, store: store, tally: tally, sessionIDs: sessionIDs, answeredAfterKill: answered, killedAt: killedAt))
            storeService.cancel()
            try await storeService.value
            #expect(try await current.server.terminate() == 0)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".log") {
                let log = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                let reuses = log.components(separatedBy: "reuse detected").count - 1
                if serverArguments.isEmpty { #expect(reuses == 0, "\(name): \(log.suffix(2000))") }
            }
        }
        try FileManager.default.removeItem(at: folder)
    }

    /// Waits until `server` has answered a refresh as one of `outcomes`, and returns how many.
    static func waitForAnAnswer(_ server: AuthServerChild, _ outcomes: [String]) async throws -> Int {
        for _ in 0..<1500 {
            let counts = try await server.refreshOutcomes()
            let answered = outcomes.reduce(0) { $0 + counts[$1, default: 0] }
            if answered > 0 { return answered }
            // Waiting on another process and the clients' retries: no clock to advance.
            try await Task.sleep(for: .milliseconds(20))
        }
        return 0
    }
}

/// The server the proxy's killer kills: replaced after each restart.
private final class CurrentServer: @unchecked Sendable {
    // `@unchecked`: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: AuthServerChild

    init(_ server: AuthServerChild) { value = server }

    var server: AuthServerChild {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// A trigger that fires once per `arm()`, for the first request that asks.
private final class OneShot: @unchecked Sendable {
    // `@unchecked`: `armed` is only touched under `lock`.
    private let lock = NSLock()
    private var armed = false

    func arm() { lock.withLock { armed = true } }

    /// Whether this call fired it (and disarmed it).
    func fire() -> Bool {
        lock.withLock {
            defer { armed = false }
            return armed
        }
    }
}
