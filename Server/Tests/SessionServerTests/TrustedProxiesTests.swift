import Foundation
import HTTPTypes
import Testing

@testable import SessionServer

/// Who the client is behind proxies: only hops the operator trusts may speak for it.
struct TrustedProxiesTests {
    static let proxies = try! TrustedProxies(parsing: "10.0.0.0/8, 192.168.1.7, fd00::/8")

    @Test func readsRangesAndSingleHosts() throws {
        #expect(Self.proxies.description == "10.0.0.0/8,192.168.1.7/32,fd00::/8")
        #expect(try TrustedProxies(parsing: "").ranges.isEmpty)
        for bad in ["10.0.0.0/33", "not-an-ip", "10.0.0.0/8/1", "::1/129", "1.2.3"] {
            let error = try #require(throws: ConfigurationError.self) { try TrustedProxies(parsing: "10.0.0.0/8,\(bad)") }
            #expect(error.description.contains(bad))
        }
    }

    @Test func withoutTrustedProxiesTheSocketPeerIsTheClient() {
        let address = TrustedProxies.none.clientAddress(peer: "198.51.100.9", forwardedFor: ["203.0.113.7"])
        #expect(address?.description == "198.51.100.9")
    }

    @Test func anUntrustedPeerIsTheClientWhateverItForwards() {
        let address = Self.proxies.clientAddress(peer: "198.51.100.9", forwardedFor: ["203.0.113.7"])
        #expect(address?.description == "198.51.100.9")
    }

    /// The old rule believed the leftmost entry, which the client writes itself.
    @Test func theClientIsTheRightmostUntrustedHop() {
        let spoofed = Self.proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["6.6.6.6, 203.0.113.7"])
        #expect(spoofed?.description == "203.0.113.7")
        let chain = Self.proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["6.6.6.6, 203.0.113.7", "192.168.1.7"])
        #expect(chain?.description == "203.0.113.7")
        let allTrusted = Self.proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["10.1.1.1"])
        #expect(allTrusted?.description == "10.1.1.1")
        let garbage = Self.proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["<script>, 10.1.1.1"])
        #expect(garbage?.description == "10.1.1.1")
        let v6 = Self.proxies.clientAddress(peer: "fd00::1", forwardedFor: ["[2001:db8::5]"])
        #expect(v6?.description == "2001:db8::5")
    }

    @Test func ipv6IsLimitedPerSlash64() throws {
        let a = try #require(IPAddress("2001:db8:1:2:aaaa::1"))
        let b = try #require(IPAddress("2001:db8:1:2:bbbb::2"))
        let c = try #require(IPAddress("2001:db8:1:3::1"))
        #expect(a.rateLimitKey == b.rateLimitKey)
        #expect(a.rateLimitKey != c.rateLimitKey)
        #expect(a.rateLimitKey == "2001:db8:1:2::/64")
        #expect(IPAddress("203.0.113.7")?.rateLimitKey == "203.0.113.7")
        #expect(IPAddress("::ffff:203.0.113.7")?.rateLimitKey == "203.0.113.7")
    }

    @Test func readsTheFlagAndTheEnvironment() throws {
        let fromEnvironment = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(), environment: ["AUTH_SERVER_TRUSTED_PROXIES": "10.0.0.0/8"])
        #expect(fromEnvironment.trustedProxies.description == "10.0.0.0/8")
        let fromFlag = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(trustedProxies: "::1"), environment: ["AUTH_SERVER_TRUSTED_PROXIES": "10.0.0.0/8"])
        #expect(fromFlag.trustedProxies.description == "::1/128")
        #expect(try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: [:]).trustedProxies == .none)
        #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(ConfigurationOverrides(trustedProxies: "10.0.0.0/99"), environment: [:])
        }
    }
}
