import Foundation

/// Why a web authentication session ended without a callback, as
/// `ASWebAuthenticationSessionError` says it.
public struct WebAuthenticationError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: String, Sendable, Hashable {
        case cancelled, presentationFailed
    }

    private let kind: Kind
    /// What the system reported, for logs.
    public let detail: String?

    private init(_ kind: Kind, detail: String? = nil) {
        self.kind = kind
        self.detail = detail
    }

    /// The person closed the sheet, or declined the system's "wants to use … to sign in" prompt (`canceledLogin`).
    public static let cancelled = WebAuthenticationError(.cancelled)
    /// The session could not be shown (no presentation anchor, not started).
    public static let presentationFailed = WebAuthenticationError(.presentationFailed)

    /// A copy with what the system said attached.
    public func with(detail: String) -> WebAuthenticationError {
        WebAuthenticationError(kind, detail: detail)
    }

    public var description: String {
        "WebAuthenticationError.\(kind.rawValue)" + (detail.map { " (\($0))" } ?? "")
    }

    public static func == (lhs: WebAuthenticationError, rhs: WebAuthenticationError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
