import Foundation
import ProcessTesting
import SessionKit
import Testing

/// `FileSessionStore` under kill -9: a writer process is killed at random
/// moments; after every kill the record decodes to the last committed
/// session or the one being written, never a corrupt or missing record.
@Suite(.serialized)
struct CrashWriteTests {
    @Test func killedWriterLeavesTheOldOrTheNewRecord() async throws {
        let folder = try Binaries.temporaryFolder("crash")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storeDirectory = folder.appendingPathComponent("store")
        let kills = RunSize.crashKills
        let seed = RunSize.crashSeed
        var random = SplitMix64(seed: seed)
        var onDisk = 0  // the record number on disk; 0 = none yet
        var stats = CrashStats()

        for round in 1...kills {
            let probe = try ChildProcess(
                executable: Binaries.storeProbe, arguments: ["write-loop", storeDirectory.path],
                output: .merged(folder.appendingPathComponent("probe.log").path))
            try await probe.waitForOutput("ready")
            // A random moment within the next few writes (each is a handful of fsyncs).
            try await Task.sleep(for: .microseconds(Int.random(in: 0..<30_000, using: &random)))
            let code = probe.killAndReap()
            let output = probe.output
            #expect(code == 128 + SIGKILL, "round \(round): the probe failed on its own:\n\(output.suffix(500))")
            let log = ProbeLog(output)
            #expect(log.ready == onDisk, "round \(round): the probe started from \(String(describing: log.ready)), not \(onDisk)")
            let committed = log.lastCommitted ?? onDisk

            let record: StoredSession?
            do {
                record = try await FileSessionStore(directory: storeDirectory).load()
            } catch {
                Issue.record("round \(round) (seed \(seed)): the record does not load: \(error)")
                return
            }
            guard let record else {
                #expect(committed == 0, "round \(round) (seed \(seed)): record \(committed) was committed, then lost")
                continue
            }
            let number = try #require(Self.number(of: record), "round \(round): not a probe record")
            #expect(
                number == committed || number == committed + 1,
                "round \(round) (seed \(seed)): record \(number) on disk, committed \(committed)")
            #expect(Self.isWhole(record, number: number), "round \(round): record \(number) is mixed up")
            stats.count(committed: committed - onDisk, inFlightLanded: number == committed + 1)
            onDisk = number
        }
        // One more writer, killed after its first commit: a save removes the
        // temporary files of writers that died, so at most the last one's is left.
        let last = try ChildProcess(
            executable: Binaries.storeProbe, arguments: ["write-loop", storeDirectory.path],
            output: .merged(folder.appendingPathComponent("probe.log").path))
        try await last.waitForOutput("committed")
        last.killAndReap()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: storeDirectory.path)
            .filter { $0.hasSuffix(".tmp") }.count
        #expect(leftovers <= 1, "\(leftovers) temporary files (each a copy of the tokens) were left behind")
        print(
            "crash-kill: \(kills) kills, seed \(seed), \(stats.commits) commits, \(stats.killedBeforeCommit) kills before any commit, "
                + "\(stats.inFlightLanded) kills after an uncommitted write landed, \(leftovers) temp files left, record \(onDisk) on disk, "
                + "0 corrupt, 0 lost")
        #expect(stats.commits > 0, "the kills never let a write finish: the test proves nothing")
    }

    /// `n` of a record `probe-refresh-n`.
    static func number(of record: StoredSession) -> Int? {
        guard record.refreshToken.hasPrefix("probe-refresh-") else { return nil }
        return Int(record.refreshToken.dropFirst("probe-refresh-".count))
    }

    /// Every field of the record belongs to the same write `n` (as `store-probe` builds it).
    static func isWhole(_ record: StoredSession, number n: Int) -> Bool {
        let user = n.isMultiple(of: 2) ? "A" : "B"
        return record.accessToken == "probe-access-\(user)-\(n)" && record.user?.id == "user-\(user)"
            && record.expiresAt == Date(timeIntervalSince1970: 2_000_000_000 + Double(n))
    }
}

/// What a `write-loop` probe printed before it was killed.
struct ProbeLog {
    var ready: Int?
    var lastCommitted: Int?

    init(_ output: String) {
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 2, let n = Int(words[1]) else { continue }
            if words[0] == "ready" { ready = n }
            if words[0] == "committed" { lastCommitted = n }
        }
    }
}

struct CrashStats {
    var commits = 0
    var killedBeforeCommit = 0
    var inFlightLanded = 0

    mutating func count(committed: Int, inFlightLanded landed: Bool) {
        commits += committed
        if committed == 0 { killedBeforeCommit += 1 }
        if landed { inFlightLanded += 1 }
    }
}
