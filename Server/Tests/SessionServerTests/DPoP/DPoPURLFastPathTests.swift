import Foundation
import Testing
@testable import SessionServer

/// `htu`'s fast path (``DPoPURL/matches(_:path:externalURL:host:)``) gives the
/// answer the full normalisation gave, for every input: its one claim,
/// ``DPoPURL/isPlainlyNormal(_:)`` ⇒ `normalised(text) == text`, is checked
/// against `URLComponents` on mutated URLs (docs/BENCHMARKS.md, "Item 9's figures").
struct DPoPURLFastPathTests {
    static let schemes = ["http", "https", "HTTP", "Https", "ftp", "", "http:/", "https:"]
    static let separators = ["://", "://", "://", ":/", "://user@", "://u:p@", ":///"]
    static let hosts = [
        "localhost", "auth.example.com", "Auth.Example.COM", "a..b", "-a-", "1.2.3.4", "999.999.999.999", "[::1]",
        "exa mple.com", "xn--bcher-kva.example", "ex%41mple.com", "bücher.example", "", ".", "a_b.com", "a.b.", "0",
    ]
    static let ports = ["", "", ":80", ":443", ":8080", ":08080", ":0", ":1", ":65535", ":65536", ":99999", ":", ":8a", ":123456"]
    static let paths = [
        "", "/", "/auth/v1/user", "/auth/v1/token", "//x", "/a/../b", "/./a", "/a%20b", "/a%2", "/a b", "/ü", "/a?x=1",
        "/a#f", "/A~b-c_d.e", "/a;b", "/a:b@c", "/%7E", "/.", "/..", "/a/", "/\u{212A}",
    ]
    /// What mutations put in: letters of both cases, URL delimiters, percent, white space, non-ASCII.
    static let inserted: [Character] = ["a", "Z", "0", "9", ".", "-", "_", "~", "/", ":", "@", "?", "#", "%", "[", "]", " ", "\\", "é", "\u{212A}", "\u{0}", "+"]

    /// Parts of URLs that may pass ``DPoPURL/isPlainlyNormal(_:)``, so half the
    /// inputs test its claim rather than its refusals.
    static let plainHosts = [
        "localhost", "auth.example.com", "xn--bcher-kva.example", "a--b.example", "a..b", "-a-", "1.2.3.4",
        "999.999.999.999", "0", ".", "a.b.", "127.0.0.1", "0x7f.1",
    ]
    static let plainPaths = ["/", "/auth/v1/user", "/auth/v1/token", "//x", "/a/../b", "/./a", "/.", "/..", "/a/", "/A~b-c_d.e", "/~"]

    static func randomURL(_ generator: inout some RandomNumberGenerator) -> String {
        if Bool.random(using: &generator) {
            var text = ["http://", "https://"].randomElement(using: &generator)! + plainHosts.randomElement(using: &generator)!
                + ports.randomElement(using: &generator)! + plainPaths.randomElement(using: &generator)!
            if Int.random(in: 0..<4, using: &generator) == 0 { text = mutate(text, &generator) }
            return text
        }
        var text = schemes.randomElement(using: &generator)! + separators.randomElement(using: &generator)!
            + hosts.randomElement(using: &generator)! + ports.randomElement(using: &generator)!
            + paths.randomElement(using: &generator)! + (Bool.random(using: &generator) ? "" : paths.randomElement(using: &generator)!)
        for _ in 0..<Int.random(in: 0...2, using: &generator) where !text.isEmpty {
            text = mutate(text, &generator)
        }
        return text
    }

    @Test func aPlainlyNormalURLNormalisesToItself() {
        var generator = SystemRandomNumberGenerator()
        var plain = 0
        for _ in 0..<30_000 {
            let text = Self.randomURL(&generator)
            guard DPoPURL.isPlainlyNormal(text) else { continue }
            plain += 1
            #expect(DPoPURL.normalised(text) == text, "\(text.debugDescription)")
        }
        // The claim was tested on many inputs, not vacuously.
        #expect(plain > 2_000, "\(plain) plainly normal URLs")
    }

    @Test func matchesGivesTheFullNormalisationsAnswer() {
        var generator = SystemRandomNumberGenerator()
        let externals: [URL?] = [
            nil, URL(string: "https://auth.example.com"), URL(string: "https://auth.example.com/"),
            URL(string: "HTTPS://Auth.Example.com:443/base/"), URL(string: "http://localhost:8080"),
        ]
        let hostHeaders: [String?] = [nil, "", "localhost", "auth.example.com", "Auth.Example.com:443", "localhost:8080", "localhost:80"]
        let requestPaths = ["/auth/v1/user", "/auth/v1/token", "/", "/a%20b", "/A~b"]
        var matched = 0
        for round in 0..<30_000 {
            let external = externals.randomElement(using: &generator)!
            let host = hostHeaders.randomElement(using: &generator)!
            let path = requestPaths.randomElement(using: &generator)!
            // Half the time what a client would send (a candidate, maybe mutated), else anything.
            var htu = Self.randomURL(&generator)
            if round % 2 == 0 {
                let base = external.map { String($0.absoluteString.reversed().drop { $0 == "/" }.reversed()) }
                    ?? (Bool.random(using: &generator) ? "http://" : "https://") + (host ?? "")
                htu = base + path
                if Bool.random(using: &generator) { htu = Self.mutate(htu, &generator) }
            }
            let old = DPoPURL.normalised(htu).map(DPoPURL.expected(path: path, externalURL: external, host: host).contains) ?? false
            let new = DPoPURL.matches(htu, path: path, externalURL: external, host: host)
            #expect(new == old, "htu \(htu.debugDescription), path \(path), external \(String(describing: external)), host \(String(describing: host))")
            if old { matched += 1 }
        }
        #expect(matched > 3_000, "\(matched) matched")
    }

    /// One character replaced, inserted, removed or uppercased.
    static func mutate(_ text: String, _ generator: inout some RandomNumberGenerator) -> String {
        guard !text.isEmpty else { return text }
        var characters = Array(text)
        let index = Int.random(in: 0..<characters.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: characters[index] = inserted.randomElement(using: &generator)!
        case 1: characters.insert(inserted.randomElement(using: &generator)!, at: index)
        case 2: characters.remove(at: index)
        default: characters[index] = Character(characters[index].uppercased())
        }
        return String(characters)
    }
}
