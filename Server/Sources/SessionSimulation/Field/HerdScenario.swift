import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionKit
import SessionKitTesting
import SessionServer

/// A herd behind one address (issue 31, row 1): `devices` apps behind one NAT
/// address (a school's Wi-Fi, carrier NAT), killed in the background, all
/// launched within `resumeSpread` seconds with expired tokens, against a
/// live server behind GoTrue's per-IP `/token` limiter (`GoTrueTokenLimiter`).
/// Time is the test clock's; each app makes a request every 30 s once open.
public struct HerdScenario: Sendable {
    public var devices = 60
    public var seed: UInt64
    public var resumeSpread: TimeInterval = 10
    /// How long the herd is watched (simulated seconds).
    public var horizon: TimeInterval = 15 * 60
    /// A planted client defect (`no-jitter` is the one this scenario exists to catch).
    public var sabotage: HarnessSabotage?

    public init(seed: UInt64, devices: Int = 60) {
        self.seed = seed
        self.devices = devices
    }

    /// `/token` calls allowed per device: one at launch, plus the full-jitter
    /// backoff steps that fit before the bucket has admitted the whole herd.
    /// The bucket needs (devices − 30) / 0.5 s after its burst (60 s for 60
    /// devices), plus the launch spread: 70 s. With ceilings doubling from
    /// 1 s, a device that failed k times has waited about (2^k − 1)/2 s, so
    /// k ≤ 8 failures cover 127 s on average; two more for unlucky draws.
    public var callsPerDeviceBound: Int {
        let admitAll = max(0, Double(devices) - GoTrueTokenLimiter.burst) / GoTrueTokenLimiter.perSecond + resumeSpread
        return 1 + Int(log2(2 * admitAll + 1).rounded(.up)) + 2
    }
    /// Every device refreshed within this time of its launch.
    public static let recoveryBound: TimeInterval = 5 * 60

    public func run() async throws -> HerdReport {
        let serverClock = ManualClock()
        var configuration = AuthServerConfiguration.testing(clock: serverClock)
        // Our server's own limiter is not under test: GoTrue's sits in front of it.
        configuration.tokenRequestsPerMinutePerIP = 10_000_000
        configuration.passwordSignInsPerMinutePerEmail = 10_000
        configuration.passwordSignInsPerHourPerEmail = 10_000
        configuration.gatewayRequestsPerMinutePerUser = 10_000_000
        let logger = {
            var logger = Logger(label: "sessionkit-herd")
            logger.logLevel = .critical
            return logger
        }()
        let server = try await AuthServer(configuration: configuration, logger: logger)
        return try await server.withRunningServer { url in
            try await HerdRun(scenario: self, serverURL: url, clock: serverClock, logger: logger).run()
        }
    }
}

/// What the herd did, and its invariants.
public struct HerdReport: Sendable {
    public let devices: Int
    public let tokenCalls: Int
    public let limited: Int
    public let callsPerDeviceBound: Int
    public let mostCallsByOneDevice: Int
    public let recovered: Int
    public let slowestRecovery: TimeInterval
    public let logouts: Int
    /// Retry intervals (between one device's consecutive `/token` calls) and how many were distinct to the millisecond.
    public let retryIntervals: Int
    public let distinctRetryIntervals: Int
    /// The most `/token` calls in any one second after the launch window.
    public let peakCallsPerSecondAfterLaunches: Int

    public var invariants: [SimulationReport.Invariant] {
        let spread = retryIntervals == 0 ? 1 : Double(distinctRetryIntervals) / Double(retryIntervals)
        return [
            .init(name: "logouts in the herd", required: "0", measured: logouts, holds: logouts == 0),
            .init(name: "devices not recovered within \(Int(HerdScenario.recoveryBound)) s", required: "0",
                  measured: devices - recovered, holds: recovered == devices && slowestRecovery <= HerdScenario.recoveryBound),
            .init(name: "devices over \(callsPerDeviceBound) /token calls", required: "0",
                  measured: mostCallsByOneDevice > callsPerDeviceBound ? 1 : 0, holds: mostCallsByOneDevice <= callsPerDeviceBound),
            .init(name: "retry intervals alike (not jittered), of \(retryIntervals)", required: "under 10 %",
                  measured: retryIntervals - distinctRetryIntervals, holds: spread >= 0.9),
        ]
    }

    public var holds: Bool { invariants.allSatisfy(\.holds) }

    public var table: String {
        var lines = ["| herd invariant | required | measured | |", "|---|---|---|---|"]
        for invariant in invariants {
            lines.append("| \(invariant.name) | \(invariant.required) | \(invariant.measured) | \(invariant.holds ? "ok" : "BROKEN") |")
        }
        lines.append(String(
            format: "\n%d devices: /token calls %d (%d answered 429), most by one device %d (bound %d), recovered %d, slowest %.0f s, logouts %d, peak calls in one second after the launches %d",
            devices, tokenCalls, limited, mostCallsByOneDevice, callsPerDeviceBound, recovered, slowestRecovery, logouts,
            peakCallsPerSecondAfterLaunches))
        return lines.joined(separator: "\n")
    }
}
