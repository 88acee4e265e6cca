import NIOConcurrencyHelpers
import NIOCore

/// What every connection of one proxy shares: where to forward, the plan, the
/// statistics and the open connections (so shutdown can close stalled ones).
final class ProxyContext: Sendable {
    private let upstreamAddress: NIOLockedValueBox<(host: String, port: Int)>
    let plan: FaultPlan
    let group: any EventLoopGroup
    private let counters = NIOLockedValueBox(ProxyStatistics())
    private let open = NIOLockedValueBox([ObjectIdentifier: any Channel]())
    private let upstreamKiller = NIOLockedValueBox<(@Sendable () -> Void)?>(nil)

    init(upstreamHost: String, upstreamPort: Int, plan: FaultPlan, group: any EventLoopGroup) {
        self.upstreamAddress = NIOLockedValueBox((upstreamHost, upstreamPort))
        self.plan = plan
        self.group = group
    }

    /// Where new client connections are forwarded.
    var upstream: (host: String, port: Int) {
        get { upstreamAddress.withLockedValue { $0 } }
        set { upstreamAddress.withLockedValue { $0 = newValue } }
    }

    /// What ``ProxyFault/killUpstreamOnResponseHead`` runs.
    var killUpstream: (@Sendable () -> Void)? {
        get { upstreamKiller.withLockedValue { $0 } }
        set { upstreamKiller.withLockedValue { $0 = newValue } }
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
