import Foundation
@testable import SessionKit
import Testing

/// `AllowedOrigins` (the origins parsed once when a client is made) gives
/// `send`, redirects and the path beside the actor the same answer for every
/// URL as `Origin.url(_:isIn:)` over the configured URLs did on each call
/// (docs/BENCHMARKS.md, "Round 3, items 1–2"). A property test over generated
/// URLs: case, default and explicit ports, IPv6, userinfo, trailing dots,
/// percent-encoding, unusual schemes, relative URLs.
struct AllowedOriginsTests {
    /// Every URL the generator can spell that Foundation accepts.
    static let urls: [URL] = {
        let schemes = ["http", "https", "HTTPS", "HtTp", "ws", "wss", "ftp", "file", "a+b.c-d", "mailto"]
        let userinfo = ["", "user@", "user:pass@", "u%40x:p@"]
        let hosts = [
            "example.com", "EXAMPLE.com", "example.com.", "api.example.com", "127.0.0.1", "[::1]", "[::FFFF:127.0.0.1]",
            "[fe80::1%25en0]", "xn--bcher-kva.example", "ex%41mple.com", "localhost", "",
        ]
        let ports = ["", ":", ":80", ":443", ":0443", ":8080", ":65535", ":99999"]
        let tails = ["", "/", "/a/b?c=d#e", "?q=1", "#f", "/%2F"]
        var found: [URL] = []
        for scheme in schemes {
            for info in userinfo {
                for host in hosts {
                    for port in ports {
                        for tail in tails {
                            if let url = URL(string: "\(scheme)://\(info)\(host)\(port)\(tail)") { found.append(url) }
                        }
                    }
                }
            }
        }
        // Relative URLs take their origin from their base; a few odd spellings besides.
        let base = URL(string: "https://Example.com:443/root/")!
        for relative in ["runs", "/runs", "//api.example.com/x", "https://other.example/y", "?q", ""] {
            if let url = URL(string: relative, relativeTo: base) { found.append(url) }
        }
        for odd in ["https:example.com", "https:/example.com", "//example.com", "example.com", "https://", "http://[::1"] {
            if let url = URL(string: odd) { found.append(url) }
        }
        return found
    }()

    /// A deterministic generator, so a failure names a seed that reproduces it.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func answersAsTheCheckOnEveryCallDid() {
        let urls = Self.urls
        #expect(urls.count > 5_000)
        var random = SplitMix(state: 44)
        for round in 0..<20 {
            let app = (0..<Int.random(in: 0...3, using: &random)).map { _ in urls.randomElement(using: &random)! }
            let backend = (0..<Int.random(in: 0...2, using: &random)).map { _ in urls.randomElement(using: &random)! }
            let configured: [URL]? = round % 5 == 0 ? nil : app
            let origins = AllowedOrigins(authorizedOrigins: configured, backendOrigins: backend)
            for url in urls {
                #expect(
                    origins.authorizes(url) == Origin.url(url, isIn: (configured ?? []) + backend),
                    "round \(round): \(url.absoluteString) against \(app) and \(backend)")
                #expect(origins.isBackend(url) == Origin.url(url, isIn: backend), "round \(round): \(url.absoluteString)")
            }
            // The configured URLs themselves, the case a client meets most.
            for url in (configured ?? []) + backend {
                #expect(origins.authorizes(url) == Origin.url(url, isIn: (configured ?? []) + backend))
            }
        }
    }

    @Test func matchesDefaultPortsCaseAndNothingElse() {
        let origins = AllowedOrigins(
            authorizedOrigins: [URL(string: "https://API.example.com")!], backendOrigins: [URL(string: "http://auth.example.com:8080")!])
        #expect(origins.authorizes(URL(string: "https://api.example.com:443/runs")))
        #expect(origins.authorizes(URL(string: "http://AUTH.example.com:8080/x")))
        #expect(!origins.authorizes(URL(string: "http://api.example.com/runs")))
        #expect(!origins.authorizes(URL(string: "https://api.example.com:8443/runs")))
        #expect(!origins.authorizes(nil))
        #expect(origins.isBackend(URL(string: "http://auth.example.com:8080/auth/v1/token")))
        #expect(!origins.isBackend(URL(string: "https://api.example.com/runs")))
    }
}
