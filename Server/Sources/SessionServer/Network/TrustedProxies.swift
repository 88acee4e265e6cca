#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The proxies whose `X-Forwarded-For` the server believes
/// (`--trusted-proxies CIDR,…`, `AUTH_SERVER_TRUSTED_PROXIES`).
///
/// Anyone can send `X-Forwarded-For`; only a hop the operator named may add
/// to it. So the client is the rightmost address that is not a trusted
/// proxy, read from the socket peer leftwards through the header. Without
/// trusted proxies the header is ignored and the socket peer is the client.
public struct TrustedProxies: Sendable, Hashable, CustomStringConvertible {
    /// The ranges, as given (normalised).
    public let ranges: [IPRange]

    public static let none = TrustedProxies(ranges: [])

    public init(ranges: [IPRange]) { self.ranges = ranges }

    /// Reads `10.0.0.0/8,192.168.1.7,::1/128` (a bare address is a single host).
    ///
    /// - Throws: ``ConfigurationError`` naming the entry that is not an address or range.
    public init(parsing text: String) throws(ConfigurationError) {
        var ranges: [IPRange] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            guard let range = IPRange(entry) else {
                throw ConfigurationError("The trusted proxy '\(entry.prefix(60))' is not an IP address or CIDR range (e.g. 10.0.0.0/8).")
            }
            ranges.append(range)
        }
        self.ranges = ranges
    }

    public var description: String { ranges.map(\.description).joined(separator: ",") }

    public func contains(_ address: IPAddress) -> Bool { ranges.contains { $0.contains(address) } }

    /// The client's address: the socket peer, or, when the peer is a trusted
    /// proxy, the rightmost untrusted hop of `forwardedFor` (every
    /// `X-Forwarded-For` value, in order). `nil` when the peer is unknown.
    public func clientAddress(peer: String?, forwardedFor: [String]) -> IPAddress? {
        guard let peer = peer.flatMap(IPAddress.init) else { return nil }
        guard contains(peer) else { return peer }
        var client = peer
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            // A hop that is not an address was not written by a proxy we trust: stop at the last good one.
            guard let address = IPAddress(hop) else { break }
            client = address
            if !contains(address) { break }
        }
        return client
    }
}
