import NIOConcurrencyHelpers
import NIOCore

/// What every connection of one proxy shares: where to forward, the plan, the
/// statistics and the open connections (so shutdown can close stalled ones).
final class ProxyContext: Sendable {
    let upstreamHost: String
    let upstreamPort: Int
    let plan: FaultPlan
    let group: any EventLoopGroup
    private let counters = NIOLockedValueBox(ProxyStatistics())
    private let open = NIOLockedValueBox([ObjectIdentifier: any Channel]())

    init(upstreamHost: String, upstreamPort: Int, plan: FaultPlan, group: any EventLoopGroup) {
        self.upstreamHost = upstreamHost
        self.upstreamPort = upstreamPort
        self.plan = plan
        self.group = group
    }

    var statistics: ProxyStatistics { counters.withLockedValue { $0 } }

    func count(_ update: (inout ProxyStatistics) -> Void) { counters.withLockedValue(update) }

    func opened(_ channel: any Channel) {
        open.withLockedValue { $0[ObjectIdentifier(channel)] = channel }
        count { $0.connections += 1 }
    }

    func closed(_ channel: any Channel) {
        _ = open.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func closeAll() {
        for channel in open.withLockedValue({ Array($0.values) }) {
            channel.close(promise: nil)
        }
    }
}
