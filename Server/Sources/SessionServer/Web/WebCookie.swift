import Foundation
import HTTPTypes

/// The browser session cookie of `/account` and `/admin`.
///
/// `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page
/// sends it, so a forged form arrives without it), and `Secure` with the
/// `__Host-` prefix (`Path=/`, no `Domain`: no sibling subdomain or plain-http
/// page can set or shadow it) unless the server is reached over plain http:
/// an http `--external-url`, or none and a loopback bind (development). Then
/// the cookie is scoped to the pages' path instead (issue 29, item 10).
struct WebCookie: Sendable {
    let name: String
    let path: String
    let secure: Bool
    /// `Strict` for the pages' sessions; `Lax` only for a cookie that must
    /// survive a return from another site (the OAuth verifier).
    let sameSite: String

    init(name: String, path: String, secure: Bool, sameSite: String = "Strict") {
        self.name = secure ? "__Host-" + name : name
        self.path = secure ? "/" : path
        self.secure = secure
        self.sameSite = sameSite
    }

    /// Whether the pages are served over https, as far as the configuration says.
    static func isSecure(externalURL: URL?, host: String) -> Bool {
        if let scheme = externalURL?.scheme?.lowercased() { return scheme == "https" }
        return !AuthServerConfiguration.isLoopback(host)
    }

    /// The cookie's value in `headers`, if sent.
    func value(in headers: HTTPFields) -> String? {
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    let value = parts[1].trimmingCharacters(in: .whitespaces)
                    return value.count <= 128 ? value : nil
                }
            }
        }
        return nil
    }

    func set(_ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=\(sameSite)" + (secure ? "; Secure" : "")
    }

    func clear() -> String { set("", maxAge: 0) }
}
