import SessionSimulation
import Testing

/// The device's life events (issue 31, rows 5–10), CI-sized: every event
/// played three times on its own against a live server. The full-size run
/// plays one after each app life (`SimulationParameters.deviceEvents`).
struct DeviceEventTests {
    static func parameters(seed: UInt64, sabotage: HarnessSabotage? = nil) -> SimulationParameters {
        var parameters = SimulationParameters(lives: 3 * DeviceEvent.allCases.count, days: 1, seed: seed, parallelism: 2)
        parameters.deviceEventsOnly = true
        parameters.sabotage = sabotage
        return parameters
    }

    @Test func everyDeviceEventKeepsItsInvariant() async throws {
        let report = try await ChaosSimulation(parameters: Self.parameters(seed: 20_261_126)).run()
        print(report.table)
        for invariant in report.invariants {
            #expect(invariant.holds, "\(invariant.name): required \(invariant.required), measured \(invariant.measured)")
        }
        for life in report.failingLives.prefix(6) {
            Issue.record("life \(life.index): \(life.violations)\n\(life.trace.joined(separator: "\n"))")
        }
        #expect(report.lives.compactMap(\.deviceEvent).count == 3 * DeviceEvent.allCases.count)
    }
}

/// Each device event catches the defect it exists for, on every play: the
/// events are scripted, so the seed cannot hide a defect (docs/RELIABILITY.md
/// has the rate over 20 seeds).
struct DeviceEventSabotageTests {
    @Test(arguments: DeviceEvent.allCases)
    func theEventCatchesItsPlantedDefect(event: DeviceEvent) async throws {
        let report = try await ChaosSimulation(
            parameters: DeviceEventTests.parameters(seed: 20_261_127, sabotage: event.plantedDefect)
        ).run()
        let plays = report.lives.compactMap(\.deviceEvent).filter { $0.event == event }
        #expect(plays.count == 3)
        #expect(plays.allSatisfy { !$0.violations.isEmpty }, "\(event.plantedDefect.name) went undetected in a play:\n\(report.table)")
        #expect(report.broken.contains(event.invariant))
        print("sabotage \(event.plantedDefect.name): caught by \(report.broken.joined(separator: "; "))")
        for life in report.failingLives {
            #expect(life.trace.count > 2, "life \(life.index) failed without a trace")
            #expect(!life.trace.contains { $0.contains("eyJ") }, "life \(life.index)'s trace shows a JWT")
        }
    }
}
