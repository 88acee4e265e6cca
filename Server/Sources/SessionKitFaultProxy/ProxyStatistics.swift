/// What a proxy has seen so far.
public struct ProxyStatistics: Sendable, Equatable {
    /// Requests received from clients.
    public var requests = 0
    /// Requests that reached the upstream server.
    public var forwarded = 0
    /// Connections accepted from clients.
    public var connections = 0
    /// Injected faults by name.
    public var faults: [String: Int] = [:]
    /// Portal pages served to clients that followed a `302` fault (not faults of their own).
    public var portalPages = 0

    public init() {}
}
