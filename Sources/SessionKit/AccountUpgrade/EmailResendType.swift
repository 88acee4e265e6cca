import Foundation

/// What ``SessionClient/resend(email:type:)`` mails again (GoTrue's `/resend` `type`).
///
/// An open set (a struct, not an enum), so a new kind never breaks a caller's `switch`.
public struct EmailResendType: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The codes of a pending email change (both addresses' for a confirmed person).
    public static let emailChange = EmailResendType(rawValue: "email_change")
    /// The sign-up confirmation.
    public static let signup = EmailResendType(rawValue: "signup")
}
