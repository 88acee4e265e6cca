import Foundation

/// Reading the fields of a body around its two tokens, leniently.
///
/// A server that answered a refresh with a 2xx has already rotated the
/// refresh token: throwing its answer away for a field we cannot read signs
/// the person out (docs/PROTOCOL.md, rule C). Everything but the tokens is
/// therefore read in the shapes real backends send (a numeric user id from
/// Rails or Django, an `aud` array, a date without a time zone, a number in
/// a string) and dropped when it still cannot be read; the names of dropped
/// fields (never their values) are collected for the client to log.
public enum LenientDecoding {
    /// Seconds as a number, or as a number in a string (`"3600"`).
    public static func seconds(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let seconds)?: seconds.isFinite ? seconds : nil
        case .string(let text)?: Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// A date: RFC 3339 (with or without fractional seconds), the same without
    /// a time zone or with a space for the `T` (read as UTC), or a timestamp.
    ///
    /// A timestamp is read by its size: above 10¹² it is milliseconds since
    /// 1970; from 10⁹ it is seconds since 1970; below, seconds since 2001 —
    /// what `JSONEncoder`'s default date strategy writes (10⁹ seconds after
    /// 1970 is September 2001, and 10⁹ seconds after 2001 is 2032, so no
    /// date an app stored in between is ambiguous).
    public static func date(_ value: JSONValue?) -> Date? {
        switch value {
        case .number(let number)?:
            return date(timestamp: number)
        case .string(let text)?:
            if let number = Double(text) { return date(timestamp: number) }
            if let date = WireCoding.parseDate(text) { return date }
            return dateWithoutZone(text)
        default:
            return nil
        }
    }

    static func date(timestamp: Double) -> Date? {
        guard timestamp.isFinite, timestamp > 0 else { return nil }
        if timestamp >= 1e12 { return Date(timeIntervalSince1970: timestamp / 1000) }
        if timestamp >= 1e9 { return Date(timeIntervalSince1970: timestamp) }
        return Date(timeIntervalSinceReferenceDate: timestamp)
    }

    /// `2026-01-01 01:00:00`, `2026-01-01T01:00:00.123456` or with `+00` (Postgres), read as UTC when no zone is given.
    private static func dateWithoutZone(_ text: String) -> Date? {
        var normalised = text.replacingOccurrences(of: " ", with: "T")
        if normalised.hasSuffix("+00") { normalised += ":00" }
        if let date = WireCoding.parseDate(normalised) { return date }
        if let date = WireCoding.parseDate(normalised + "Z") { return date }
        // Fractional seconds longer than milliseconds (Postgres writes microseconds).
        if let dot = normalised.firstIndex(of: ".") {
            let fraction = normalised[normalised.index(after: dot)...].prefix { $0.isNumber }
            if fraction.count > 3 {
                let trimmed = normalised.replacingCharacters(
                    in: dot..<normalised.index(dot, offsetBy: fraction.count + 1), with: "." + fraction.prefix(3))
                return WireCoding.parseDate(trimmed) ?? WireCoding.parseDate(trimmed + "Z")
            }
        }
        return nil
    }

    /// An identifier: a string, or an integer (Rails, Django and Laravel number their users).
    public static func identifier(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: return text.isEmpty ? nil : text
        case .number(let number)?:
            guard number.isFinite, number == number.rounded(), abs(number) < 9e15 else { return nil }
            return String(Int64(number))
        default: return nil
        }
    }
}

/// The names of the fields a lenient decode dropped, collected through the decoder's `userInfo`.
///
/// ``WireCoding/decoder()`` installs one per decoder; a type decoding
/// leniently reports the path of each field it could not read.
public final class DroppedFields: @unchecked Sendable {
    // Written only during one synchronous decode; the lock keeps a shared decoder safe anyway.
    private let lock = NSLock()
    private var paths: [String] = []

    public init() {}

    public static let key = CodingUserInfoKey(rawValue: "SessionKit.droppedFields")!

    /// The dropped fields' paths (`user.created_at`), in the order they were met.
    public var all: [String] { lock.withLock { paths } }

    func add(_ path: String) { lock.withLock { paths.append(path) } }

    /// Reports `key` under `decoder`'s coding path, when the decoder carries a collector.
    public static func report(_ key: some CodingKey, in decoder: any Decoder) {
        guard let collector = decoder.userInfo[Self.key] as? DroppedFields else { return }
        collector.add((decoder.codingPath + [key]).map(\.stringValue).joined(separator: "."))
    }
}
