/// Why a JWT could not be read.
///
/// A struct with static members so cases can be added without breaking
/// callers; `reason` names the part that was wrong.
public struct JWTDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case malformed, badEncoding, badJSON, tooLarge
    }

    private let kind: Kind
    /// What was wrong, in words a log reader can act on.
    public let reason: String

    private init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The token is not three dot-separated parts.
    public static let malformed = JWTDecodingError(.malformed, "The token is not a JWT: expected three dot-separated parts.")
    /// The token is larger than any token SessionKit accepts.
    public static let tooLarge = JWTDecodingError(.tooLarge, "The token is larger than 8 KiB.")

    /// A part is not base64url.
    public static func badEncoding(part: String) -> JWTDecodingError {
        JWTDecodingError(.badEncoding, "The JWT \(part) is not base64url.")
    }

    /// A part is not the JSON object it must be.
    public static func badJSON(part: String, detail: String) -> JWTDecodingError {
        JWTDecodingError(.badJSON, "The JWT \(part) is not valid JSON: \(detail)")
    }

    public var description: String { reason }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
