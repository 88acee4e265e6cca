import Foundation

extension SMTPConfiguration {
    private static let examples =
        "Write smtp://user:password@host:587 (STARTTLS, required), smtps://user:password@host:465 (implicit TLS), "
        + "or smtp://127.0.0.1:25?tls=none (a relay on loopback); percent-encode '@', ':' and '/' in the user and password."

    /// Parses `smtp://user:pass@host:port` (STARTTLS, required; default port 587),
    /// `smtps://user:pass@host:port` (implicit TLS; default port 465) and
    /// `smtp://host:port?tls=none` (no TLS; with credentials only to a loopback host,
    /// so a password never crosses a network in clear). User and password are percent-decoded.
    public init(url: String) throws(MailError) {
        guard let schemeEnd = url.range(of: "://") else { throw Self.invalid("there is no scheme") }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        var security: Security
        switch scheme {
        case "smtp": security = .startTLS
        case "smtps": security = .implicitTLS
        default: throw Self.invalid("unsupported scheme '\(scheme)'")
        }
        var rest = url[schemeEnd.upperBound...]
        guard !rest.contains("#") else { throw Self.invalid("a fragment ('#') has no meaning here") }

        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let authority = rest.prefix { $0 != "/" }
        guard rest.dropFirst(authority.count).allSatisfy({ $0 == "/" }) else {
            throw Self.invalid("a path has no meaning here")
        }

        var username: String?
        var password: String?
        var hostAndPort = authority
        // The last '@' ends the credentials, so an unencoded '@' in a password still parses.
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            hostAndPort = authority[authority.index(after: at)...]
            let user = credentials.prefix { $0 != ":" }
            username = try Self.decoded(user, what: "user name")
            if user.count < credentials.count {
                password = try Self.decoded(credentials.dropFirst(user.count + 1), what: "password")
            }
            guard username?.isEmpty == false else { throw Self.invalid("the user name is empty") }
            guard password != nil else { throw Self.invalid("a user name without a password") }
        }

        let (host, port) = try Self.hostAndPort(hostAndPort)
        for item in query.split(separator: "&") {
            switch item.lowercased() {
            case "tls=none" where security == .startTLS: security = .none
            case "tls=starttls" where security == .startTLS: break
            default: throw Self.invalid("unknown or contradictory option '\(item)'; the only one is tls=none, on smtp://")
            }
        }
        if security == .none, username != nil, !Self.isLoopback(host) {
            throw Self.invalid(
                "tls=none with a user and password to \(host) would send the password in clear; "
                    + "use STARTTLS (drop tls=none) or smtps://, or point tls=none at a relay on loopback"
            )
        }
        self.init(host: host, port: port, security: security, username: username, password: password)
    }

    private static func hostAndPort(_ text: Substring) throws(MailError) -> (String, Int?) {
        var host = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw invalid("an IPv6 address lacks its ']'") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("unexpected '\(after)' after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            let candidate = text[text.index(after: colon)...]
            guard !candidate.contains(":") else { throw invalid("put an IPv6 address in brackets: smtp://[::1]:25") }
            portText = candidate
        }
        guard !host.isEmpty else { throw invalid("the host is missing") }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:".contains($0)) }) else {
            throw invalid("'\(host)' is not a host name")
        }
        guard let portText else { return (String(host), nil) }
        guard let port = Int(portText), (1...65535).contains(port) else { throw invalid("'\(portText)' is not a port") }
        return (String(host), port)
    }

    private static func decoded(_ text: Substring, what: String) throws(MailError) -> String {
        guard let value = String(text).removingPercentEncoding else {
            throw invalid("the \(what) has a bad percent escape")
        }
        return value
    }

    private static func invalid(_ problem: String) -> MailError {
        .invalidURL(problem, instead: examples)
    }
}
