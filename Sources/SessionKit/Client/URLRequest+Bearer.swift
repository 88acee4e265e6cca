import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Sets `Authorization: Bearer <token>`, replacing any `Authorization`
    /// the request had (whatever its case).
    ///
    /// Not `setValue(_:forHTTPHeaderField:)`: on Linux, FoundationNetworking
    /// checks a value for CR, LF and NUL by walking its `Character`s, grapheme
    /// breaking included, about 40 µs for a ~800-byte bearer on the benchmark
    /// machine, the largest part of what `send` cost beside a hand-set header
    /// (docs/BENCHMARKS.md, "Round 3"). The same check here reads the UTF-8
    /// bytes: only a space and visible ASCII (what a JWT and "Bearer " are
    /// made of) take this path; anything else goes through `setValue`, which
    /// refuses it as before.
    mutating func setBearer(_ token: String) {
        let value = "Bearer \(token)"
        guard value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            setValue(value, forHTTPHeaderField: "Authorization")
            return
        }
        var fields = allHTTPHeaderFields ?? [:]
        for key in fields.keys where key.lowercased() == "authorization" { fields[key] = nil }
        fields["Authorization"] = value
        allHTTPHeaderFields = fields
    }
}
