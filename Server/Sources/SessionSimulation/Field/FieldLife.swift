import Foundation
import SessionKit
import SessionKitTesting

/// One life's part in the field rows of issue 31 (the network and the
/// server): what is drawn for them, from a generator of their own so the
/// life's other draws (and every earlier seed's lives) stay as they were.
final class FieldLife: @unchecked Sendable {
    // `@unchecked`: `random` is used only from the life's own task.
    var random: SplitMix64?
    let staleKeys = StaleKeyWindow()
    /// Row 2's outage, once the life's first one is drawn.
    var outage: TokenOutage?

    /// The generator, seeded from the life's seed the first time it is needed.
    func draw(_ chance: Double, lifeSeed: UInt64) -> Bool {
        guard chance > 0 else { return false }
        if random == nil { random = SplitMix64(seed: lifeSeed ^ 0x6669_656c_645f_6e65) }
        return random!.chance(chance)
    }
}

/// What a life's field rows counted (see `SimulationReport+Field`).
public struct FieldReport: Sendable {
    /// Row 3: windows opened, app requests made in them, the resource's 401s, refreshes sent in them.
    public var staleKeyWindows = 0
    public var staleKeyRequests = 0
    public var staleKeyRejections = 0
    public var staleKeyRefreshes = 0
    /// 401s beyond three for any one app request (``StaleKeyWindow/excessSends``).
    public var staleKeyExcessPerRequest = 0
    /// 401s of the stale resource reaching the app (allowed: the session is kept).
    public var staleKeyUnauthorized = 0

    /// Issue 44: whether the app's own origin answered the life's one 401 (``AppOriginRejection``).
    public var appOriginRejected = false

    /// Row 2: outages lived through, refreshes sent during them, the worst rate and the slowest recovery.
    public var outages = 0
    public var outageCalls = 0
    public var outageWorstCallsPerHour = 0.0
    public var outageWorstRecovery: TimeInterval = 0

    public init() {}

    /// Row 3's invariant: each app request is answered after one forced
    /// refresh and one retry (two of each when the first refresh adopted a
    /// stored token), so the resource sees at most three sends of it.
    public var staleKeyExcessSends: Int { max(staleKeyExcessPerRequest, staleKeyRejections - 3 * staleKeyRequests) }

    /// Row 2's invariants: refreshes per foreground hour and recovery after the fix, against their goals.
    public var outageTooChatty: Bool { outageWorstCallsPerHour > AppLife.outageCallsPerHourGoal }
    public var outageTooSlow: Bool { outageWorstRecovery > AppLife.outageRecoveryGoal }

    var violations: [String] {
        var found: [String] = []
        if staleKeyExcessSends > 0 {
            found.append("\(staleKeyExcessSends) request(s) to a stale-JWKS resource beyond one refresh and one retry per app request")
        }
        if outageTooChatty { found.append(String(format: "%.0f refreshes per foreground hour during a /token outage", outageWorstCallsPerHour)) }
        if outageTooSlow { found.append(String(format: "recovered %.0f s after the outage ended", outageWorstRecovery)) }
        return found
    }
}

extension AppLife {
    /// The middlewares of the field rows, outermost first: what the client's
    /// requests meet before the device's network (`ChaosMiddleware`).
    func fieldMiddlewares() -> [any TransportMiddleware] {
        var middlewares: [any TransportMiddleware] = []
        if parameters.staleKeyChance > 0 {
            middlewares.append(StaleKeyResourceServer(window: field.staleKeys, serverClock: world.serverClock, trace: trace))
        }
        if parameters.outageChance > 0 {
            if field.outage == nil { field.outage = TokenOutage(serverClock: world.serverClock, network: network) }
            if let outage = field.outage { middlewares.append(outage) }
        }
        if speaksOldGoTrue { middlewares.append(OldGoTrueDialect(trace: trace)) }
        return middlewares
    }

    /// Before a use: the field rows' events (a key rotation, the targeted world's widget).
    func fieldEventsBeforeUse() async throws {
        if field.draw(parameters.staleKeyChance, lifeSeed: report.seed) {
            field.staleKeys.open(at: world.serverClock.now)
            report.field.staleKeyWindows += 1
            trace.note("signing key rotated: the resource server rejects every token for 10 min")
        }
        try await extensionWhileAppSuspended()
        if !ended, field.draw(parameters.outageChance, lifeSeed: report.seed) { try await tokenOutage() }
    }

    /// An app request's outcome, as the field rows see it; true when it is theirs to count (not a violation elsewhere).
    func fieldRecords(_ outcome: RequestOutcome) -> Bool {
        guard field.staleKeys.isOpen(at: world.serverClock.now) else { return false }
        report.field.staleKeyRequests += 1
        if case .unauthorized = outcome {
            report.field.staleKeyUnauthorized += 1
            return true
        }
        return false
    }

    /// Copies the field rows' counters into the life's report (at its final check).
    func fieldFinish() {
        let counts = field.staleKeys.counts
        report.field.staleKeyRejections = counts.rejections
        report.field.staleKeyRefreshes = counts.refreshes
        report.field.staleKeyExcessPerRequest = field.staleKeys.excessSends
        report.field.appOriginRejected = appOriginRejection.wasAnswered
    }
}
