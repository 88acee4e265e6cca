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
        if let externalURL {
            var base = externalURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            return normalised(base + path).map { [$0] } ?? []
        }
        guard let host, !host.isEmpty else { return [] }
        return ["http", "https"].compactMap { normalised($0 + "://" + host + path) }
    }
}
