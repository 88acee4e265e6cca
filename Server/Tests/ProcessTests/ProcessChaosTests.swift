import Foundation
import ProcessTesting
import Testing

/// A slice of chaos lives as real OS processes: each life's app and extension
/// are `store-probe live` processes on one `FileSessionStore`, killed with
/// SIGKILL (not a flag) at random moments, often between a committed rotation
/// and its save, and relaunched, against a real `auth-server`. No process may
/// see the session end, the server may detect no reuse, and each life's last
/// relaunch comes up signed in. With a planted defect the same run must fail.
@Suite(.serialized)
struct ProcessChaosTests {
    /// Two-second access tokens: a life refreshes every couple of seconds, so
    /// many kills meet a refresh. A one-second grace: a relaunch sooner than
    /// it is a replay, a later one needs successor recovery.
    static let serverOptions = ["--access-token-ttl", "2", "--refresh-grace", "1"]

    static func startServer(in folder: URL) async throws -> AuthServerChild {
        try await AuthServerChild(
            arguments: ["serve", "--host", "127.0.0.1", "--port", "0", "--database", folder.appendingPathComponent("auth.sqlite").path]
                + serverOptions,
            directory: folder.path, output: .merged(folder.appendingPathComponent("server.log").path))
    }

    @Test func processesKilledWithSIGKILLKeepTheSession() async throws {
        let folder = try Binaries.temporaryFolder("process-chaos")
        let server = try await Self.startServer(in: folder)
        defer { server.kill() }
        let lives = 3
        let tally = try await ProcessChaosRun(folder: folder, server: server, sabotage: nil)
            .run(lives: lives, kills: RunSize.processChaosKills, seed: RunSize.crashSeed)
        let outcomes = try await server.refreshOutcomes()
        print(
            "process chaos: \(lives) lives, \(tally.processesStarted) processes, \(tally.kills) SIGKILLs "
                + "(\(tally.killsAfterACommittedRefresh) after a committed rotation and before its save, "
                + "\(tally.killsWithARefreshOnTheWire) with a refresh on the wire), \(tally.refreshes) refreshes, "
                + "\(tally.adoptions) adoptions; server: \(outcomes.sorted { $0.key < $1.key }); logouts \(tally.logouts.count)")

        #expect(tally.logouts.isEmpty, "\(tally.logouts.prefix(5))")
        #expect(tally.finalFailures.isEmpty, "\(tally.finalFailures)")
        #expect(outcomes["refreshTokenAlreadyUsed", default: 0] == 0, "\(outcomes)")
        #expect(!server.log.contains("reuse detected"))
        // Coverage floors: the zeros mean something only if kills met committed rotations and the server recovered them.
        #expect(tally.killsAfterACommittedRefresh >= tally.kills / 5, "only \(tally.killsAfterACommittedRefresh) kills after a committed rotation")
        #expect(outcomes["rotated", default: 0] > 0)
        #expect(outcomes["replayedWithinGrace", default: 0] >= 1, "\(outcomes)")
        #expect(outcomes["recoveredUnsavedSuccessor", default: 0] >= 1, "\(outcomes)")
        // Kept only when the run failed, for its logs.
        if tally.logouts.isEmpty, tally.finalFailures.isEmpty { try FileManager.default.removeItem(at: folder) }
    }

    /// The slice can fail: processes that persist nothing after a refresh
    /// relaunch with a rotated-out token, and the run sees the sessions end.
    @Test func aPlantedDefectIsCaught() async throws {
        let folder = try Binaries.temporaryFolder("process-chaos-sabotage")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.startServer(in: folder)
        defer { server.kill() }
        let tally = try await ProcessChaosRun(folder: folder, server: server, sabotage: "persist-nothing")
            .run(lives: 2, kills: 6, seed: RunSize.crashSeed)
        let outcomes = try await server.refreshOutcomes()
        print("process chaos, sabotage persist-nothing: logouts \(tally.logouts.count), final failures \(tally.finalFailures.count), server \(outcomes)")
        #expect(!tally.logouts.isEmpty || !tally.finalFailures.isEmpty, "persist-nothing went undetected: \(outcomes)")
    }
}
