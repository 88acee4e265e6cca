import Foundation

/// Where `/auth/v1/authorize` may send people back to (`redirect_to`).
///
/// Strict on purpose, because an allowed redirect receives a one-time code:
/// - scheme, host and port must equal the entry's (no subdomain wildcards);
/// - the path must equal the entry's path, or, when the entry ends in `*`,
///   start with the part before the `*`;
/// - a loopback entry (`127.0.0.1`, `[::1]`, `localhost`) may give its port as
///   `*`, because a CLI waits on whatever free port it got (RFC 8252 §7.3);
/// - a redirect with user info (`https://a@b`) or a fragment is never allowed.
///
/// Entries: `https://app.example.com/auth/callback`, `https://app.example.com/auth/*`,
/// `myapp://oauth-callback`, `http://127.0.0.1:*/callback`.
public struct RedirectAllowList: Sendable, Hashable {
    struct Entry: Sendable, Hashable {
        var scheme: String
        var host: String
        /// `nil` with `anyPort` false: the scheme's default port.
        var port: Int?
        var anyPort: Bool
        var path: String
        var pathIsPrefix: Bool
    }

    /// The entries as configured.
    public let patterns: [String]
    let entries: [Entry]

    /// Parses `patterns`.
    ///
    /// - Throws: ``ConfigurationError`` naming the first entry that is not a usable URL pattern.
    public init(_ patterns: [String]) throws {
        self.patterns = patterns
        self.entries = try patterns.map(Self.entry(parsing:))
    }

    /// Parses a comma-separated list, as `AUTH_SERVER_REDIRECT_ALLOW_LIST` holds.
    public init(commaSeparated text: String) throws {
        try self.init(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// Allows nothing: every OAuth redirect is refused until the list is configured.
    public static let empty = RedirectAllowList(patterns: [], entries: [])

    private init(patterns: [String], entries: [Entry]) {
        self.patterns = patterns
        self.entries = entries
    }

    /// True when `redirect` may receive the flow's result.
    public func allows(_ redirect: String) -> Bool {
        guard redirect.utf8.count <= 2048, let components = URLComponents(string: redirect),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil, components.fragment == nil
        else { return false }
        let path = components.path.isEmpty ? "/" : components.path
        // Dot segments could climb out of an allowed prefix.
        if path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) || path.contains("%2e") || path.contains("%2E") {
            return false
        }
        return entries.contains { entry in
            guard entry.scheme == scheme, entry.host == host else { return false }
            if !entry.anyPort, (components.port ?? Self.defaultPort(scheme)) != (entry.port ?? Self.defaultPort(scheme)) {
                return false
            }
            return entry.pathIsPrefix ? path.hasPrefix(entry.path) : path == entry.path
        }
    }

    static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    static let loopbackHosts: Set<String> = ["127.0.0.1", "[::1]", "::1", "localhost"]

    private static func entry(parsing pattern: String) throws -> Entry {
        func invalid(_ why: String) -> ConfigurationError {
            ConfigurationError("Redirect allow-list entry '\(pattern.prefix(100))' \(why).")
        }
        var text = pattern
        var anyPort = false
        // URLComponents cannot read `:*` as a port; take it out first.
        if let range = text.range(of: ":*") , text[range.upperBound...].first.map({ $0 == "/" }) ?? true {
            text.removeSubrange(range)
            anyPort = true
        }
        var pathIsPrefix = false
        if text.hasSuffix("*") {
            text.removeLast()
            pathIsPrefix = true
        }
        guard !text.contains("*") else { throw invalid("may hold '*' only as the port of a loopback host or at the end") }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { throw invalid("is not an absolute URL with a host") }
        guard components.query == nil, components.fragment == nil, components.user == nil else {
            throw invalid("must not hold a query, fragment or user info")
        }
        if anyPort, !loopbackHosts.contains(host) { throw invalid("may use port '*' only for a loopback host") }
        let path = components.path.isEmpty && !pathIsPrefix ? "/" : components.path
        return Entry(
            scheme: scheme, host: host, port: components.port, anyPort: anyPort, path: path, pathIsPrefix: pathIsPrefix)
    }
}
