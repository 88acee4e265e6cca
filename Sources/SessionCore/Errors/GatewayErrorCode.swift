/// A gateway error code (`error.code` in the envelope).
///
/// An open set: unknown codes from a newer server still decode.
public struct GatewayErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    // Codable comes from the standard library's `RawRepresentable` conformance:
    // a bare JSON string, any value accepted.

    public var description: String { rawValue }

    /// The session is over: clear it, tell the person once, never retry.
    public static let sessionExpired = GatewayErrorCode("SESSION_EXPIRED")
    /// No usable credentials: go to sign-in without an error message.
    public static let authRequired = GatewayErrorCode("AUTH_REQUIRED")
    /// Signed in but not allowed; refreshing will not help.
    public static let forbidden = GatewayErrorCode("FORBIDDEN")
    /// The request was malformed; the message names the field.
    public static let invalidRequest = GatewayErrorCode("INVALID_REQUEST")
    /// The resource does not exist (or belongs to someone else).
    public static let notFound = GatewayErrorCode("NOT_FOUND")
    /// The request conflicts with existing data.
    public static let conflict = GatewayErrorCode("CONFLICT")
    /// Too many requests; back off for `Retry-After` seconds.
    public static let rateLimited = GatewayErrorCode("RATE_LIMITED")
    /// A server fault: keep the session, retry with backoff.
    public static let `internal` = GatewayErrorCode("INTERNAL")
    /// The action needs fresh proof: send `current_password`, or sign in again
    /// and retry. The session itself is still valid (a 403, never a 401).
    public static let reauthenticationRequired = GatewayErrorCode("REAUTHENTICATION_REQUIRED")

    /// The message the server sends with this code when it has nothing more specific.
    public var defaultMessage: String {
        switch self {
        case .sessionExpired: "Your session has expired. Please sign in again."
        case .authRequired: "You need to sign in to continue."
        case .forbidden: "You do not have access to this resource."
        case .invalidRequest: "The request is not valid."
        case .notFound: "Not found."
        case .conflict: "The request conflicts with existing data."
        case .rateLimited: "Too many requests. Please wait a moment and try again."
        case .internal: "Something went wrong on our side. Please try again."
        default: "The request failed (\(rawValue))."
        }
    }
}
