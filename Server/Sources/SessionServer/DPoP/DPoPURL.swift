import Foundation

/// The form `htu` is compared in (docs/DPOP.md, "The wire"):
/// `scheme://host[:port]/path`, scheme and host lowercased, the default port
/// (80 for http, 443 for https) dropped, query and fragment dropped.
enum DPoPURL {
    /// `text` normalised, or `nil` when it is not an absolute http(s) URL.
    static func normalised(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.percentEncodedHost?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil
        else { return nil }
        var result = scheme + "://" + host
        if let port = components.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            result += ":\(port)"
        }
        let path = components.percentEncodedPath
        return result + (path.isEmpty ? "/" : path)
    }

    /// The URLs a proof's `htu` may name for a request to `path`.
    ///
    /// With an external URL configured, only that base plus the path. Without
    /// one, the request's `Host` with either scheme: behind a TLS-terminating
    /// proxy the server cannot tell which the client used (docs/DPOP.md says:
    /// set `--external-url` for a strict scheme check).
    static func expected(path: String, externalURL: URL?, host: String?) -> [String] {
        candidates(path: path, externalURL: externalURL, host: host).compactMap(normalised)
    }

    /// Whether a proof's `htu` names one of ``expected(path:externalURL:host:)``'s
    /// URLs once normalised: always the same answer as
    /// `normalised(htu).map(expected(...).contains) ?? false`.
    ///
    /// Fast path: a client sends the URL it requested, usually byte for byte
    /// the candidate the server builds; when it is, and that text is already
    /// in the normal form (``isPlainlyNormal(_:)``), it normalises to itself
    /// and no URL parser runs. `URLComponents` was 8 % of a proof's check
    /// (docs/BENCHMARKS.md, "Item 9's figures"). Anything else takes the full
    /// normalisation, as before.
    static func matches(_ htu: String, path: String, externalURL: URL?, host: String?) -> Bool {
        let candidates = candidates(path: path, externalURL: externalURL, host: host)
        // Bytes, not `String ==` (canonical equivalence): the fast path's claim is about this exact text.
        if candidates.contains(where: { $0.utf8.elementsEqual(htu.utf8) }), isPlainlyNormal(htu) { return true }
        guard let htu = normalised(htu) else { return false }
        return candidates.contains { normalised($0) == htu }
    }

    /// The texts ``expected(path:externalURL:host:)`` normalises.
    private static func candidates(path: String, externalURL: URL?, host: String?) -> [String] {
        if let externalURL {
            var base = externalURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            return [base + path]
        }
        guard let host, !host.isEmpty else { return [] }
        return ["http://" + host + path, "https://" + host + path]
    }

    /// A conservative test that ``normalised(_:)`` returns `text` unchanged:
    /// `http://` or `https://`, a host of lowercase letters, digits, `.` and
    /// `-` (never `--`, as in punycode's `xn--`), an optional port of 1 to
    /// 65535 (no leading zero, not the scheme's default), then a path of `/`
    /// and unreserved characters only (RFC 3986 §2.3): no user, query,
    /// fragment, percent sign or anything to lowercase. `false` says nothing:
    /// such text takes the full normalisation. `DPoPURLFastPathTests` checks
    /// the claim against ``normalised(_:)`` on mutated URLs.
    static func isPlainlyNormal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        let https: Bool
        if bytes.starts(with: "http://".utf8) {
            https = false
            bytes = bytes.dropFirst(7)
        } else if bytes.starts(with: "https://".utf8) {
            https = true
            bytes = bytes.dropFirst(8)
        } else {
            return false
        }
        let host = bytes.prefix { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "/") }
        // No `--` at all: `URLComponents` turns a punycode label (`xn--`) into its
        // Unicode, percent-encoded (what `DPoPURLFastPathTests` found).
        guard !host.isEmpty, host.allSatisfy(isHostByte), !Substring(host).contains("--") else { return false }
        bytes = bytes[host.endIndex...]
        if bytes.first == UInt8(ascii: ":") {
            let port = bytes.dropFirst().prefix { $0 != UInt8(ascii: "/") }
            guard (1...5).contains(port.count), port.first != UInt8(ascii: "0"),
                  port.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let number = Int(Substring(port)), number <= 65535, number != (https ? 443 : 80)
            else { return false }
            bytes = bytes[port.endIndex...]
        }
        guard bytes.first == UInt8(ascii: "/") else { return false }
        return bytes.allSatisfy(isPathByte)
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"): true
        default: false
        }
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"): true
        default: false
        }
    }
}
