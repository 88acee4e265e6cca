import Foundation
import HTTPTypes

/// The browser session cookie of `/account` and `/admin`.
///
/// `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page
/// sends it, so a forged form arrives without it), `Secure` when the server's
/// public URL is https, and scoped to the pages' path.
struct WebCookie: Sendable {
    let name: String
    let path: String
    let secure: Bool

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
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    func clear() -> String { set("", maxAge: 0) }
}
