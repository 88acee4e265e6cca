import Foundation
import SessionKit

extension DeviceBench {
    /// Life `index` of a run: its app life (unless the run plays device
    /// events only), then, for one life in `deviceEventEvery`, a device
    /// event, the kinds in turn.
    static func life(_ index: Int, parameters: SimulationParameters, world: SimulationWorld) async throws -> LifeReport {
        let seed = SplitMix64.lifeSeed(runSeed: parameters.seed, life: index)
        var life = parameters.deviceEventsOnly
            ? LifeReport(index: index, seed: seed, ending: nil)
            : try await AppLife(index: index, parameters: parameters, world: world).run()
        let every = parameters.deviceEventsOnly ? 1 : max(1, parameters.deviceEventEvery)
        guard parameters.deviceEvents, index % every == 0 else { return life }
        let event = DeviceEvent.played(byLife: index / every)
        let bench = DeviceBench(event: event, life: index, seed: seed, world: world, sabotage: parameters.sabotage)
        defer { bench.removeDirectory() }
        // In an app life, the person's own draw; in a device-events-only run, the same draw from the seed.
        bench.anonymous = life.anonymous.map { _ in true } ?? (parameters.deviceEventsOnly && AnonymousPerson.startsAnonymously(lifeSeed: seed, parameters: parameters))
        bench.dpop = life.dpop != nil || (parameters.deviceEventsOnly && DPoPDevice.isDrawn(lifeSeed: seed, parameters: parameters))
        do {
            try await bench.play()
        } catch {
            // The world has no faults: a step the client could not take is the client's failure,
            // counted against the event (a planted defect can make any step fail), never the run's.
            bench.report.violations.append("the event stopped: a step failed with \(error)")
        }
        bench.report.requests = bench.wire.requests.count
        life.deviceEvent = bench.report
        if bench.anonymous, event == .deviceRestore {
            if life.anonymous == nil { life.anonymous = AnonymousLifeReport() }
            life.anonymous?.restoredOnAnotherDevice = true
            if bench.anonymousAccountLost, life.anonymous?.accountsLost == 0 {
                life.anonymous?.accountsLost = 1
                life.anonymous?.lostHow = "the backup restored on another device presented the copied refresh token, or cost the phone its session"
            }
        }
        if bench.dpopRestorePlayed {
            if life.dpop == nil { life.dpop = DPoPLifeReport() }
            life.dpop?.restoredOnAnotherDevice = true
        }
        if !bench.report.violations.isEmpty {
            life.trace += ["device event \(event.rawValue):"] + bench.report.trace + bench.report.violations.map { "broken: \($0)" }
        }
        return life
    }

    func play() async throws {
        note("device event \(report.event.rawValue)")
        switch report.event {
        case .signOutAgainstMigration: try await signOutAgainstMigration()
        case .twoClientsOneStore: try await twoClientsOneStore()
        case .updateMovesTheRecord: try await updateMovesTheRecord()
        case .prewarmedLaunch: try await prewarmedLaunch()
        case .widgetSharesSession: try await widgetSharesSession()
        case .deviceRestore:
            try await deviceRestore()
            if anonymous { try await anonymousDeviceRestore() }
            if dpop { try await dpopDeviceRestore() }
        }
    }
}

extension LifeReport {
    /// The broken rules of this life's device event, if any.
    var deviceViolations: [String] {
        guard let event = deviceEvent else { return [] }
        return event.violations.map { "\(event.event.rawValue): \($0)" }
    }
}

extension SimulationReport {
    /// One invariant per device event (rows 5–10 of issue 31): how many of its plays broke it.
    var deviceInvariants: [Invariant] {
        guard parameters.deviceEvents else { return [] }
        return DeviceEvent.allCases.map { event in
            let played = lives.compactMap(\.deviceEvent).filter { $0.event == event }
            let broken = played.filter { !$0.violations.isEmpty }.count
            return Invariant(name: event.invariant, required: "0 of \(played.count)", measured: broken, holds: broken == 0)
        }
    }

    /// Device events played, and the requests they sent.
    var deviceActivity: String {
        let played = lives.compactMap(\.deviceEvent)
        let each = DeviceEvent.allCases.map { event in "\(event.rawValue) \(played.filter { $0.event == event }.count)" }
        return "\(played.count) (\(each.joined(separator: ", "))), \(played.reduce(0) { $0 + $1.requests }) requests"
    }
}
