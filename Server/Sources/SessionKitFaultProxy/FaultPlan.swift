import NIOConcurrencyHelpers

/// Decides, request by request, which fault (if any) the proxy injects.
public struct FaultPlan: Sendable {
    let decide: @Sendable (ProxyRequest) -> ProxyFault?

    /// Decides with `decide`, called once per request the proxy receives.
    public init(_ decide: @escaping @Sendable (ProxyRequest) -> ProxyFault?) {
        self.decide = decide
    }

    /// Every request passes through untouched.
    public static let none = FaultPlan { _ in nil }

    /// The client names the fault in the `x-fault-proxy` request header
    /// (`FaultProxy.faultHeader`), which the proxy strips before forwarding.
    /// Lets a client-side harness draw faults from its own seeded generator.
    public static let fromHeader = FaultPlan { request in
        request.header(FaultProxy.faultHeader).flatMap { ProxyFault.all[$0] }
    }

    /// The faults in order, one per request (`nil` passes one through); then none.
    public static func script(_ faults: [ProxyFault?]) -> FaultPlan {
        let remaining = NIOLockedValueBox(faults[...])
        return FaultPlan { _ in remaining.withLockedValue { $0.popFirst() ?? nil } }
    }
}
