extension SimulationReport {
    /// Lives with a second factor keep `aal2` (issue 38, item 8): listed only when the run had such lives.
    var secondFactorInvariants: [Invariant] {
        let enrolled = lives.filter(\.hasSecondFactor)
        guard !enrolled.isEmpty else { return [] }
        let drops = enrolled.reduce(0) { $0 + $1.assuranceDrops }
        return [
            Invariant(
                name: "sessions dropped to AAL1 in \(enrolled.count) lives with a second factor", required: "0", measured: drops,
                holds: drops == 0)
        ]
    }
}
