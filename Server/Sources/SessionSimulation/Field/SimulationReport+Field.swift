import Foundation

extension SimulationReport {
    /// The invariants of the field rows of issue 31 (docs/RELIABILITY.md, "The field").
    var fieldInvariants: [Invariant] {
        let excess = lives.reduce(0) { $0 + $1.field.staleKeyExcessSends }
        let chatty = lives.filter(\.field.outageTooChatty).count
        let slow = lives.filter(\.field.outageTooSlow).count
        return [
            Invariant(
                name: "sends to a stale-JWKS resource beyond one refresh and one retry per request", required: "0",
                measured: excess, holds: excess == 0),
            Invariant(
                name: "/token outages with more than \(Int(AppLife.outageCallsPerHourGoal)) refreshes per foreground hour",
                required: "0", measured: chatty, holds: chatty == 0),
            Invariant(
                name: "/token outages recovered later than \(Int(AppLife.outageRecoveryGoal)) s after the fix", required: "0",
                measured: slow, holds: slow == 0),
        ]
    }

    /// The field rows' figures, for the activity table.
    var fieldActivity: String {
        func sum(_ key: KeyPath<FieldReport, Int>) -> Int { lives.reduce(0) { $0 + $1.field[keyPath: key] } }
        let outages = sum(\.outages)
        let worstRate = lives.map(\.field.outageWorstCallsPerHour).max() ?? 0
        let worstRecovery = lives.map(\.field.outageWorstRecovery).max() ?? 0
        let meanRate = outages == 0 ? 0 : Double(sum(\.outageCalls)) / (Double(outages) * AppLife.outageLength / 3_600)
        return "stale-JWKS windows \(sum(\.staleKeyWindows)): app requests \(sum(\.staleKeyRequests)), "
            + "resource 401s \(sum(\.staleKeyRejections)), refreshes \(sum(\.staleKeyRefreshes)), 401s shown to the app \(sum(\.staleKeyUnauthorized)); "
            + String(
                format: "6 h /token outages %d: refreshes per foreground hour %.1f mean, %.1f worst; slowest recovery %.0f s",
                outages, meanRate, worstRate, worstRecovery)
            + "; lives that met the app origin's one 401 \(lives.filter(\.field.appOriginRejected).count) of \(lives.count)"
    }
}
