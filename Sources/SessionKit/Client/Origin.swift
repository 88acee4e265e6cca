import Foundation

/// A URL's origin (RFC 6454): scheme, host and port, with default ports filled in.
struct Origin: Sendable, Hashable {
    let scheme: String
    let host: String
    let port: Int

    init?(_ url: URL?) {
        guard let url, let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
    }

    /// True when `url` has one of `origins`.
    static func url(_ url: URL?, isIn origins: [URL]) -> Bool {
        guard let origin = Origin(url) else { return false }
        return origins.contains { Origin($0) == origin }
    }
}
