extension SimulationReport {
    /// DPoP lives (issue 43, item 11): no proof refused for the client's own
    /// clock. Listed only when the run had such lives; spurious logouts and
    /// the rest are the usual invariants.
    var dpopInvariants: [Invariant] {
        let dpop = lives.compactMap(\.dpop)
        guard !dpop.isEmpty else { return [] }
        let refused = dpop.reduce(0) { $0 + $1.iatRefusalsWhileKnown }
        return [
            Invariant(
                name: "DPoP proofs refused for the client's own clock (iat, the server's clock known; \(dpop.count) DPoP lives)",
                required: "0", measured: refused, holds: refused == 0)
        ]
    }

    /// What the DPoP lives met, for the activity table; nil without them.
    var dpopActivity: String? {
        let dpop = lives.compactMap(\.dpop)
        guard !dpop.isEmpty else { return nil }
        let guesses = dpop.reduce(0) { $0 + $1.iatRefusals - $1.iatRefusalsWhileKnown }
        let refusals = serverRefreshOutcomes.dpopRefusals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return "\(dpop.count) lives, \(dpop.filter(\.bound).count) bound at the end; first guesses refused for iat before the clock was known \(guesses); "
            + "the servers' refusals by reason: \(refusals.isEmpty ? "none" : refusals.joined(separator: ", "))"
    }
}
