#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An IPv4 or IPv6 address, as 4 or 16 bytes.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public var isIPv6: Bool { bytes.count == 16 }

    /// Parses dotted IPv4 or IPv6 text (an IPv4-mapped IPv6 address is read as IPv4); `nil` otherwise.
    public init?(_ text: String) {
        let text = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        guard text.count <= 45 else { return nil }
        // Plain byte buffers, not in_addr()/in6_addr(): with MemberImportVisibility the
        // zero initializer of a C struct belongs to whichever module imported its header
        // first (Glibc or NIO's CNIOLinux), which changed between builds of one tree.
        var v4 = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = v4
            return
        }
        var all = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, text, &all) == 1 else { return nil }
        bytes = all[0..<10].allSatisfy { $0 == 0 } && all[10] == 0xff && all[11] == 0xff ? Array(all[12...]) : all
    }

    public var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        var copy = bytes
        let family = isIPv6 ? AF_INET6 : AF_INET
        guard inet_ntop(family, &copy, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The network the address belongs to, for budgets an attacker should not
    /// spend for everyone (issue 37, item 6): its /24 for IPv4, its /48 for
    /// IPv6 (a site's usual allocation), so one attacker's network is one key.
    public var networkKey: String {
        IPRange(network: self, prefixLength: isIPv6 ? 48 : 24).description
    }

    /// The key rate limits count by: the address, or for IPv6 its /64
    /// (one subscriber usually holds a whole /64, and would otherwise get a
    /// fresh limit from each of its 2^64 addresses).
    public var rateLimitKey: String {
        guard isIPv6 else { return description }
        return IPRange(network: self, prefixLength: 64).description
    }
}

/// A CIDR range: an address and a prefix length.
public struct IPRange: Sendable, Hashable, CustomStringConvertible {
    public let network: IPAddress
    public let prefixLength: Int

    /// The range holding `address`'s first `prefixLength` bits.
    public init(network address: IPAddress, prefixLength: Int) {
        let length = max(0, min(prefixLength, address.bytes.count * 8))
        var masked = address.bytes
        for index in masked.indices {
            let bitsHere = max(0, min(8, length - index * 8))
            masked[index] &= bitsHere == 0 ? 0 : UInt8(truncatingIfNeeded: 0xff << (8 - bitsHere))
        }
        self.network = IPAddress(bytes: masked)
        self.prefixLength = length
    }

    /// Reads `192.168.0.0/16`, `2001:db8::/32`, or a bare address (a single host).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = IPAddress(String(parts[0])) else { return nil }
        let maximum = address.bytes.count * 8
        var length = maximum
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...maximum).contains(given) else { return nil }
            length = given
        }
        self.init(network: address, prefixLength: length)
    }

    public func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == network.bytes.count && IPRange(network: address, prefixLength: prefixLength).network == network
    }

    public var description: String { "\(network)/\(prefixLength)" }
}

extension IPAddress {
    fileprivate init(bytes: [UInt8]) { self.bytes = bytes }
}
