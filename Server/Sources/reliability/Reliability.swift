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

    func run() async throws {
        var parameters = SimulationParameters(
            lives: lives, days: days, seed: seed, parallelism: parallelism, onlyLives: only.isEmpty ? nil : only)
        parameters.usesPerDay = usesPerDay
        parameters.faultRate = faultRate
        let total = parameters.onlyLives?.count ?? lives
        let step = max(1, total / 20)
        let report = try await ChaosSimulation(parameters: parameters).run { done in
            if done % step == 0 || done == total {
                FileHandle.standardError.write(Data("\(done)/\(total) lives\n".utf8))
            }
        }
        print(report.table)
        if !report.holds { throw ExitCode.failure }
    }
}
