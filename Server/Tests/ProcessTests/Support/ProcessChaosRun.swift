import Foundation
import ProcessTesting
import SessionKit

/// Lives whose app and extension are real OS processes (`store-probe live`)
/// on one `FileSessionStore` each, killed with SIGKILL at random moments and
/// relaunched, against one `auth-server` process. What the processes printed
/// says where each kill landed and whether any of them saw the session end.
struct ProcessChaosRun {
    let folder: URL
    let server: AuthServerChild
    let sabotage: String?

    /// What a whole run saw.
    struct Tally {
        var kills = 0
        /// Killed after the server answered a refresh with 200 (it committed) and before the new session was saved.
        var killsAfterACommittedRefresh = 0
        /// Killed after a refresh was sent and before its answer arrived.
        var killsWithARefreshOnTheWire = 0
        var processesStarted = 0
        var refreshes = 0
        var adoptions = 0
        /// `sessionExpired` or `signedOut` lines, with the probe that printed them.
        var logouts: [String] = []
        /// What the final `token` probe of each life said when it failed.
        var finalFailures: [String] = []
    }

    /// Signs one person up per life, on a store folder of its own.
    func signUp(lives: Int) async throws -> [URL] {
        try await (0..<lives).asyncMap { life in
            let store = folder.appendingPathComponent("store-\(life)")
            let client = SessionClient(
                configuration: SessionClientConfiguration(
                    backend: .goTrue(url: server.url, apiKey: "anon"), store: FileSessionStore(directory: store),
                    launchValidation: .skip, automaticRefresh: false))
            let result = try await client.signUp(email: "life\(life)@example.com", password: "correct-horse-9")
            await client.shutdown()
            guard case .signedIn = result else { throw ChaosRunError("sign-up of life \(life) did not sign in: \(result)") }
            return store
        }
    }

    /// Runs `kills` kills in each life (lives side by side), then one final
    /// relaunch per life that must come up signed in with a usable token.
    func run(lives: Int, kills: Int, seed: UInt64) async throws -> Tally {
        let stores = try await signUp(lives: lives)
        let tallies = try await withThrowingTaskGroup(of: Tally.self) { group in
            for (life, store) in stores.enumerated() {
                group.addTask { try await runLife(life, store: store, kills: kills, seed: seed &+ UInt64(life)) }
            }
            var all: [Tally] = []
            for try await tally in group { all.append(tally) }
            return all
        }
        var total = tallies.reduce(into: Tally()) { sum, one in
            sum.kills += one.kills
            sum.killsAfterACommittedRefresh += one.killsAfterACommittedRefresh
            sum.killsWithARefreshOnTheWire += one.killsWithARefreshOnTheWire
            sum.processesStarted += one.processesStarted
            sum.refreshes += one.refreshes
            sum.adoptions += one.adoptions
            sum.logouts += one.logouts
        }
        for (life, store) in stores.enumerated() {
            let probe = try ChildProcess(
                executable: Binaries.storeProbe, arguments: ["token", store.path, server.url.absoluteString],
                output: .merged(folder.appendingPathComponent("final-\(life).log").path))
            let result = try await probe.wait(limit: .seconds(60))
            let line = result.stdout.split(separator: "\n").last(where: { $0.hasPrefix("{") }).map(String.init) ?? ""
            if result.status != 0 || !line.contains("\"fingerprint\"") || !line.contains("\"expired\":0") {
                total.finalFailures.append("life \(life): status \(result.status): \(result.stdout.suffix(300))")
            }
        }
        return total
    }

    /// One life: an app and an extension process, one of them killed at a random moment, then relaunched after a random pause.
    private func runLife(_ life: Int, store: URL, kills: Int, seed: UInt64) async throws -> Tally {
        var random = SplitMix64(seed: seed)
        var tally = Tally()
        var started = 0
        func launch() throws -> ChildProcess {
            started += 1
            return try ChildProcess(
                executable: Binaries.storeProbe,
                arguments: ["live", store.path, server.url.absoluteString] + (sabotage.map { [$0] } ?? []),
                output: .merged(folder.appendingPathComponent("life\(life)-process\(started).log").path))
        }
        var processes = [try launch(), try launch()]
        for _ in 0..<kills {
            // Half the rounds kill at a random moment; the others the instant
            // a refresh's 200 has arrived (committed, not yet saved). One
            // round in four ends both processes, so no sibling presents the
            // lost answer's token within the grace.
            let targeted = random.next() % 2 == 0
            let victims = random.next() % 4 == 0 ? [0, 1] : [Int(random.next() % 2)]
            if targeted {
                try await Self.waitForACommittedRefresh(in: victims.map { processes[$0] })
            } else {
                try await Task.sleep(for: .milliseconds(Int(150 + random.next() % 600)))
            }
            for victim in victims {
                processes[victim].killAndReap()
                tally.kills += 1
                Self.classifyKill(of: processes[victim].stdout, into: &tally)
                Self.count(processes[victim], life: life, into: &tally)
            }
            // A pause shorter or longer than the server's grace: replays and recoveries both get their turn.
            try await Task.sleep(for: .milliseconds(Int(random.next() % (victims.count == 2 ? 2_500 : 800))))
            for victim in victims { processes[victim] = try launch() }
        }
        for process in processes {
            process.killAndReap()
            Self.count(process, life: life, into: &tally)
        }
        tally.processesStarted = started
        return tally
    }

    /// Returns as soon as one of `processes` prints a new `refresh-answered
    /// 200`, or after 3 s (two access token lifetimes) without one.
    static func waitForACommittedRefresh(in processes: [ChildProcess]) async throws {
        func answers() -> Int {
            processes.reduce(0) { $0 + $1.stdout.split(separator: "\n").filter { $0 == "refresh-answered 200" }.count }
        }
        let before = answers()
        for _ in 0..<300 {
            if answers() > before { return }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Where the kill landed, from the last step the process announced.
    static func classifyKill(of output: String, into tally: inout Tally) {
        let steps = ["refresh-sent", "refresh-answered", "refresh-handed-over", "saving", "saved", "ok ", "error ", "restored "]
        guard let last = output.split(separator: "\n").last(where: { line in steps.contains { line.hasPrefix($0) } }) else { return }
        if last.hasPrefix("refresh-sent") { tally.killsWithARefreshOnTheWire += 1 }
        if last == "refresh-answered 200" || last.hasPrefix("refresh-handed-over") || last.hasPrefix("saving") {
            // `saving` after an answer that was not a refresh (a sign-in) cannot happen here: the probes only refresh.
            tally.killsAfterACommittedRefresh += 1
        }
    }

    static func count(_ process: ChildProcess, life: Int, into tally: inout Tally) {
        let lines = process.stdout.split(separator: "\n")
        tally.refreshes += lines.filter { $0 == "event refreshed" }.count
        tally.adoptions += lines.filter { $0 == "event adopted" }.count
        for line in lines where line == "event sessionExpired" || line == "event signedOut" || line == "clearing" {
            tally.logouts.append("life \(life), \(process.name): \(line)")
        }
    }
}

struct ChaosRunError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Sequence where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
