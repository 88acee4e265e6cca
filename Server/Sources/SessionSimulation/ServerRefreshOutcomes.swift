import Foundation

/// How the simulation's servers answered refreshes, read from their own
/// counters (`auth_refreshes_total{outcome}` and
/// `auth_refresh_reuse_detected_total`): the server's side of the run, beside
/// what the devices saw. A lost answer the server recovered shows up here as
/// `replayedWithinGrace` or `recoveredUnsavedSuccessor`, and nowhere else.
public struct ServerRefreshOutcomes: Sendable, Equatable {
    /// Count by outcome (`rotated`, `replayedWithinGrace`, a rejection's code, …).
    public private(set) var counts: [String: Int] = [:]
    /// DPoP proofs the servers refused, by reason (`auth_dpop_proofs_refused_total{reason}`,
    /// issue 43): on refreshes and on the API's requests alike.
    public private(set) var dpopRefusals: [String: Int] = [:]

    public init(counts: [String: Int] = [:], dpopRefusals: [String: Int] = [:]) {
        self.counts = counts
        self.dpopRefusals = dpopRefusals
    }

    /// Reads the counters from a Prometheus text rendering; other lines are ignored.
    public init(prometheus text: String) {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Double(parts[1]), value.isFinite, value > 0 else { continue }
            if line.hasPrefix("auth_refresh_reuse_detected_total") {
                counts["reuseDetected", default: 0] += Int(value)
            } else if line.hasPrefix("auth_refreshes_total{"), let label = line.firstRange(of: "outcome=\"") {
                counts[String(line[label.upperBound...].prefix { $0 != "\"" }), default: 0] += Int(value)
            } else if line.hasPrefix("auth_dpop_proofs_refused_total{"), let label = line.firstRange(of: "reason=\"") {
                dpopRefusals[String(line[label.upperBound...].prefix { $0 != "\"" }), default: 0] += Int(value)
            }
        }
    }

    public static func + (lhs: Self, rhs: Self) -> Self {
        Self(
            counts: lhs.counts.merging(rhs.counts, uniquingKeysWith: +),
            dpopRefusals: lhs.dpopRefusals.merging(rhs.dpopRefusals, uniquingKeysWith: +))
    }

    /// `name count` pairs, the most frequent first.
    public var summary: String {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
