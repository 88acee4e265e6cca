extension SimulationReport {
    /// Anonymous lives (issue 40, item 6): no account thrown away while the
    /// server still holds it. Listed only when the run had such lives.
    var anonymousInvariants: [Invariant] {
        let anonymous = lives.compactMap(\.anonymous)
        guard !anonymous.isEmpty else { return [] }
        let lost = anonymous.reduce(0) { $0 + $1.accountsLost }
        let permanent = anonymous.filter(\.becamePermanent).count
        return [
            Invariant(
                name: "anonymous accounts lost while the server still held them (\(anonymous.count) anonymous lives, \(permanent) made permanent later)",
                required: "0", measured: lost, holds: lost == 0)
        ]
    }

    /// What the anonymous lives met, for the activity table; nil without them.
    var anonymousActivity: String? {
        let anonymous = lives.compactMap(\.anonymous)
        guard !anonymous.isEmpty else { return nil }
        let authRequired = anonymous.reduce(0) { $0 + $1.authRequiredAnswers }
        let lasting = anonymous.reduce(0) { $0 + $1.lastingAuthRequiredAnswers }
        let shown = anonymous.reduce(0) { $0 + $1.lastingAuthRequiredShown }
        let writes = anonymous.reduce(0) { $0 + $1.storeWriteFailures }
        let restores = anonymous.filter(\.restoredOnAnotherDevice).count
        return "\(anonymous.count) lives, \(anonymous.filter(\.becamePermanent).count) made permanent; "
            + "AUTH_REQUIRED answers \(authRequired) (\(lasting) to the fresh token too, \(shown) of those shown to the app), store writes refused \(writes), restores on another device \(restores)"
    }
}
