import ArgumentParser
import Foundation
import SessionSimulation

/// `swift run -c release reliability --lives 10000 --days 30 --seed 1`: runs
/// the chaos simulation and prints the invariant table; exits non-zero when
/// any invariant is broken.
@main
struct Reliability: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reliability",
        abstract: "Simulates app lives under injected faults and counts SessionKit's invariants.")

    @Option(help: "How many app lives.") var lives = 1_000
    @Option(help: "Days each life lasts.") var days = 30.0
    @Option(help: "The run's seed.") var seed: UInt64 = 1
    @Option(help: "Lives run side by side (one live server and proxy each).") var parallelism = 8
    @Option(name: .customLong("life"), help: "Replay only these lives of the run (repeatable).") var only: [Int] = []
    @Option(help: "Mean app uses per day.") var usesPerDay = 2.0
    @Option(help: "Probability that a request meets an injected fault.") var faultRate = 0.08
    @Option(help: "Share of lives that sign in with a passkey (docs/RELIABILITY.md).") var passkeyShare = 0.0
    @Option(help: "Share of lives whose person starts anonymously, about half of them later made permanent (a confirmed email) (docs/RELIABILITY.md).")
    var anonymousShare = 0.0
    @Option(help: "Share of lives whose client binds its session to a device key with DPoP proofs (docs/RELIABILITY.md).")
    var dpopShare = 0.0
    @Flag(help: "Clocks off by days and changed mid-life, answers without Date, and intermediaries' answers (proxy HTML 401/403, Invalid API key, captive portal, redirect).")
    var adversarial = false
    @Flag(help: "The targeted world (implies --adversarial): an extension in every life, also running while the app is suspended; more kills mid-refresh and mid-write, faults and genuine ends. Where every sabotage must be caught whatever the seed.")
    var targeted = false
    @Flag(help: "Measure how often each sabotage is caught: runs each one with --seeds seeds from --seed on, prints the table.")
    var detectionRate = false
    @Option(help: "With --detection-rate: how many seeds.") var seeds = 20
    @Flag(help: "Run the herd instead (issue 31, row 1): --devices apps behind one address launched within 10 s with expired tokens, against GoTrue's per-IP /token limiter.")
    var herd = false
    @Option(help: "With --herd: how many devices.") var devices = 60
    @Flag(help: "Run the servers without successor recovery, as backends without it: logouts a lost rotation answer explains are allowed and counted apart.")
    var noSuccessorRecovery = false
    @Option(help: "Plant this defect; the run succeeds only if an invariant catches it (see --list-sabotages).")
    var sabotage: String?
    @Flag(help: "List the defects --sabotage can plant, and exit.") var listSabotages = false
    @Flag(help: "Play no device event (issue 31, rows 5–10) after each life.") var noDeviceEvents = false
    @Flag(help: "Play only the device events (issue 31, rows 5–10), one per life, without the app lives.") var deviceEventsOnly = false
    @Option(help: "Write the last steps of every failing life to this file (a failure that happens only under load does not replay alone).")
    var traceFile: String?

    func run() async throws {
        if listSabotages {
            for sabotage in HarnessSabotage.all + HarnessSabotage.needingTheirLives { print(sabotage.name) }
            return
        }
        var parameters = SimulationParameters(
            lives: lives, days: days, seed: seed, parallelism: parallelism, onlyLives: only.isEmpty ? nil : only)
        parameters.usesPerDay = usesPerDay
        parameters.faultRate = faultRate
        if adversarial { parameters.makeAdversarial() }
        if targeted { parameters.makeTargeted() }
        parameters.deviceEvents = !noDeviceEvents
        parameters.deviceEventsOnly = deviceEventsOnly
        parameters.successorRecovery = !noSuccessorRecovery
        if passkeyShare > 0 { parameters.passkeyShare = passkeyShare }
        if anonymousShare > 0 { parameters.anonymousShare = anonymousShare }
        if dpopShare > 0 { parameters.dpopShare = dpopShare }
        if let sabotage {
            guard let planted = HarnessSabotage(name: sabotage) else {
                throw ValidationError("No sabotage called \(sabotage); --list-sabotages lists them.")
            }
            parameters.sabotage = planted
        }
        if herd {
            var scenario = HerdScenario(seed: seed, devices: devices)
            scenario.sabotage = parameters.sabotage
            let report = try await scenario.run()
            print(report.table)
            if let planted = scenario.sabotage {
                print("sabotage \(planted.name): " + (report.holds ? "NOT caught" : "caught"))
                if report.holds { throw ExitCode.failure }
                return
            }
            if !report.holds { throw ExitCode.failure }
            return
        }
        if detectionRate {
            try await measureDetectionRate(parameters)
            return
        }
        let total = parameters.onlyLives?.count ?? lives
        let step = max(1, total / 20)
        let report = try await ChaosSimulation(parameters: parameters).run { done in
            if done % step == 0 || done == total {
                FileHandle.standardError.write(Data("\(done)/\(total) lives\n".utf8))
            }
        }
        print(report.table)
        if let traceFile { try writeTraces(of: report, to: traceFile) }
        if let planted = parameters.sabotage {
            // A sabotaged run proves the harness: it must break an invariant.
            if report.holds {
                print("sabotage \(planted.name): NOT caught — no invariant broke")
                throw ExitCode.failure
            }
            print("sabotage \(planted.name): caught by \(report.broken.joined(separator: "; "))")
            return
        }
        if !report.holds { throw ExitCode.failure }
    }

    /// `--detection-rate`: every sabotage (or the one named) with each seed; fails if one is caught less than 19 times in 20.
    private func measureDetectionRate(_ world: SimulationParameters) async throws {
        let sabotages = world.sabotage.map { [$0] } ?? DetectionRate.seenByTheHarness
        let first = seed
        let measurement = DetectionRate { seed in
            var parameters = world
            parameters.seed = seed
            parameters.sabotage = nil
            return parameters
        }
        let rows = try await measurement.measure(sabotages: sabotages, seeds: (0..<UInt64(seeds)).map { first + $0 }) {
            sabotage, seed, report in
            let verdict = report.holds ? "MISSED" : "caught by \(report.broken.joined(separator: "; "))"
            FileHandle.standardError.write(Data(String(format: "%@ seed %llu (%.0f s): %@\n", sabotage.name, seed, report.wallSeconds, verdict).utf8))
        }
        print(DetectionRate.table(rows))
        if rows.contains(where: { Double($0.caught.count) < 0.95 * Double($0.runs) }) { throw ExitCode.failure }
    }

    private func writeTraces(of report: SimulationReport, to path: String) throws {
        var text = ""
        for life in report.failingLives {
            text += "== life \(life.index) (seed \(life.seed)): \(life.violations.joined(separator: "; "))\n"
            text += life.trace.joined(separator: "\n") + "\n\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        print("traces of \(report.failingLives.count) failing lives: \(path)")
    }
}
