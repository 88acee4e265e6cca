import Foundation

/// GoTrue's `ban_duration`: a Go duration (`24h`, `1h30m`, `876000h`, `90s`)
/// or `none` to lift the ban.
enum BanDuration {
    /// Seconds, or `nil` for `none`.
    ///
    /// - Throws: ``AuthError/invalidRequest(field:_:)`` naming the accepted forms.
    static func parse(_ text: String) throws -> TimeInterval? {
        if text == "none" { return nil }
        let units: [String: Double] = ["ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600]
        var total = 0.0
        var rest = Substring(text)
        func invalid() -> AuthError {
            AuthError.invalidRequest(
                field: "ban_duration", "ban_duration must be 'none' or a duration such as 24h, 1h30m or 876000h.")
        }
        guard !rest.isEmpty, text.count <= 40 else { throw invalid() }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard let value = Double(number), let scale = units[String(unit)] else { throw invalid() }
            total += value * scale
        }
        // Go rejects a negative duration here too; zero means "not banned".
        guard total.isFinite, total > 0 else { throw invalid() }
        return total
    }
}
