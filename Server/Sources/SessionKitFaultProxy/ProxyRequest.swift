/// The request a `FaultPlan` decides on: what arrived from the client, before
/// anything was forwarded.
public struct ProxyRequest: Sendable {
    /// `GET`, `POST`, …
    public let method: String
    /// The path and query, as sent (`/auth/v1/token?grant_type=refresh_token`).
    public let target: String
    /// The headers in the order they arrived.
    public let headers: [(name: String, value: String)]

    public init(method: String, target: String, headers: [(name: String, value: String)]) {
        self.method = method
        self.target = target
        self.headers = headers
    }

    /// The first value of the header `name` (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
