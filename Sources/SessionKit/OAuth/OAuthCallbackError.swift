import Foundation

/// Why a callback URL could not be used, naming the field.
///
/// A struct with a private kind and static members, so cases can be added
/// without breaking callers. ``SessionClient/handleOAuthCallback(_:)`` turns
/// it into a ``SessionError``.
public struct OAuthCallbackError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: String, Sendable, Hashable {
        case notACallback, missingField, malformedField, providerError
    }

    private let kind: Kind
    /// The field that was missing or malformed (`code`, `access_token`, …).
    public let field: String?
    /// The `error` the server or provider sent, when it sent one.
    public let error: String?
    /// The `error_code` sent, when one was.
    public let errorCode: String?
    /// What the callback says happened (`error_description`), or what was wrong with it.
    public let message: String

    private init(_ kind: Kind, field: String? = nil, error: String? = nil, errorCode: String? = nil, message: String) {
        self.kind = kind
        self.field = field
        self.error = error
        self.errorCode = errorCode
        self.message = message
    }

    /// The URL cannot be read as a callback at all.
    public static let notACallback = OAuthCallbackError(
        .notACallback, message: "The callback URL could not be read. Please start the sign-in again.")

    /// A required field is absent or empty.
    public static func missing(_ field: String) -> OAuthCallbackError {
        OAuthCallbackError(
            .missingField, field: field,
            message: "The sign-in callback has no \(field). Please start the sign-in again.")
    }

    /// A field is present but not usable; `why` says how.
    public static func malformed(_ field: String, _ why: String) -> OAuthCallbackError {
        OAuthCallbackError(
            .malformedField, field: field,
            message: "The sign-in callback's \(field) \(why). Please start the sign-in again.")
    }

    /// The callback reports an error (`error`, `error_code`, `error_description`).
    public static func provider(error: String, errorCode: String?, description: String?) -> OAuthCallbackError {
        OAuthCallbackError(
            .providerError, error: error, errorCode: errorCode,
            message: description ?? "The sign-in failed: \(error).")
    }

    /// True for ``provider(error:errorCode:description:)`` with `access_denied`: the person said no.
    public var isDenied: Bool { kind == .providerError && error == "access_denied" }

    /// Kind-only comparison for the field cases (`missing("code")` equals `missing("code")`).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.field == rhs.field && lhs.error == rhs.error
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(field)
    }

    public var description: String {
        var text = "OAuthCallbackError.\(kind.rawValue)"
        if let field { text += "(\(field))" }
        if let error { text += " [\(error)\(errorCode.map { "/\($0)" } ?? "")]" }
        return text + ": \(message)"
    }
}
