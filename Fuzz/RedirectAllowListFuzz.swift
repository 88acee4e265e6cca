import Foundation

// libFuzzer entry point. Input: an allow-list (comma-separated, as
// AUTH_SERVER_REDIRECT_ALLOW_LIST holds it), a newline, then a redirect.
// The list must parse or throw ConfigurationError, and allows(_:) must keep the
// rules RedirectAllowList's doc comment states:
// - a redirect with user info or a fragment is never allowed;
// - an allowed redirect's scheme and host equal an entry's (case-insensitively);
// - its port is the entry's (default ports counted), unless the entry is a
//   loopback host with port `*`.
// Each entry's own pattern (without the `*`) is checked as a redirect too, so
// the allowed branch is exercised as much as the refused one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRedirectAllowList(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let split = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let listText = String(decoding: bytes[..<split], as: UTF8.self)
    let redirect = split < bytes.endIndex ? String(decoding: bytes[(split + 1)...], as: UTF8.self) : ""
    let list: RedirectAllowList
    do {
        list = try RedirectAllowList(commaSeparated: listText)
    } catch {
        // A typed rejection is the expected outcome for most lists; the empty list still gets the redirect.
        checkRedirect(redirect, list: .empty)
        return 0
    }
    checkRedirect(redirect, list: list)
    for pattern in list.patterns {
        checkRedirect(pattern.replacingOccurrences(of: ":*", with: ":8123").replacingOccurrences(of: "*", with: "x"), list: list)
    }
    return 0
}

/// The parts of an absolute URL read by plain string splitting, independently of URLComponents.
struct RawURL {
    var scheme: String
    var userInfo: Bool
    var host: String
    var port: String?

    /// Splits by Unicode scalar, as URL parsers do: a combining mark after `/`
    /// makes one Character with it, and a Character-wise split would miss the `/`.
    init?(_ text: String) {
        let scalars = text.unicodeScalars
        guard let colon = scalars.firstIndex(of: ":") else { return nil }
        scheme = String(scalars[..<colon]).lowercased()
        let afterScheme = scalars[scalars.index(after: colon)...]
        guard afterScheme.starts(with: "//".unicodeScalars) else { return nil }
        let rest = afterScheme.dropFirst(2)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        userInfo = authority.contains("@")
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") { hostPort = authority[authority.index(after: at)...] }
        if hostPort.first == "[", let close = hostPort.firstIndex(of: "]") {
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            port = after.first == ":" ? String(after.dropFirst()) : nil
        } else if let portColon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<portColon])
            port = String(hostPort[hostPort.index(after: portColon)...])
        } else {
            host = String(hostPort)
            port = nil
        }
        host = (host.removingPercentEncoding ?? host).lowercased()
        if port?.isEmpty == true { port = nil }
    }

    func effectivePort() -> Int? {
        if let port { return Int(port) }
        switch scheme {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}

func checkRedirect(_ redirect: String, list: RedirectAllowList) {
    guard list.allows(redirect) else { return }
    fuzzCheck(!redirect.contains("#"), "allowed a redirect with a fragment: \(redirect)")
    guard let raw = RawURL(redirect) else {
        fatalError("allowed a redirect that is not scheme://host…: \(redirect)")
    }
    fuzzCheck(!raw.userInfo, "allowed a redirect with user info: \(redirect)")
    let loopback: Set<String> = ["127.0.0.1", "::1", "localhost"]
    let matches = list.patterns.contains { pattern in
        let anyPort = pattern.contains(":*")
        var text = pattern.replacingOccurrences(of: ":*", with: "")
        if text.hasSuffix("*") { text.removeLast() }
        guard let entry = RawURL(text) else { return false }
        guard entry.scheme == raw.scheme, entry.host == raw.host else { return false }
        if anyPort { return loopback.contains(entry.host) }
        return entry.effectivePort() == raw.effectivePort()
    }
    fuzzCheck(matches, "allowed a redirect whose scheme, host and port match no entry: \(redirect) list: \(list.patterns)")
}
