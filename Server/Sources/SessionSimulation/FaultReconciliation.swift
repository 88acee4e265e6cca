import SessionKitFaultProxy

/// Counts what happened, not what was planned: the faults the devices of one
/// group drew must be exactly the faults that group's proxy says it injected.
/// A draw the proxy never saw (a request that did not leave) or an injection
/// nobody drew (a transport that retried on its own) would make the run's
/// fault figures, and what they claim was survived, untrue.
enum FaultReconciliation {
    /// Each fault whose counts differ, in words; empty when they agree.
    static func mismatches(lives: [LifeReport], proxy: ProxyStatistics) -> [String] {
        var drawn: [String: Int] = [:]
        var cancelled: [String: Int] = [:]
        for life in lives {
            for (fault, count) in life.cancelledFaultDraws {
                if let name = fault.proxyFault?.name { cancelled[name, default: 0] += count }
            }
            for (fault, count) in life.faults {
                // `refused` goes to a closed port, not through the proxy.
                guard let name = fault.proxyFault?.name else { continue }
                drawn[name, default: 0] += count
            }
            // A mid-refresh kill sends its refresh with a reset mid-response.
            if life.killResets > 0 { drawn[ProxyFault.resetMidResponse.name, default: 0] += life.killResets }
        }
        let names = Set(drawn.keys).union(proxy.faults.keys).sorted()
        return names.compactMap { name in
            let (device, injected) = (drawn[name] ?? 0, proxy.faults[name] ?? 0)
            // A request cancelled by its process's kill may have died before it left.
            let lowest = device - (cancelled[name] ?? 0)
            // libcurl (URLSession on Linux) resends a request when a reused
            // connection dies before any answer, once per dead pooled connection
            // (seen: 3 injections for 1 draw); each resend meets the same fault.
            // Harmless (nothing was forwarded), and the transport's, not a draw.
            let highest = name == ProxyFault.resetBeforeForwarding.name ? Int.max : device
            if (lowest...max(lowest, highest)).contains(injected) { return nil }
            let note = cancelled[name].map { " (\($0) of them cancelled by a kill)" } ?? ""
            return "\(name): drawn \(device)\(note), injected by the proxy \(injected)"
        }
    }
}
