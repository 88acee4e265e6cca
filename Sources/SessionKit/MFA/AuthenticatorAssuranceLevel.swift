/// An authenticator assurance level, as GoTrue writes it in the `aal` claim.
///
/// An open set (as the error codes): a level a newer server names still reads.
public struct AuthenticatorAssuranceLevel: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// One factor proved who it is: a password, an emailed code, a provider.
    public static let aal1 = Self(rawValue: "aal1")
    /// A second factor (a TOTP code) was verified in this session.
    public static let aal2 = Self(rawValue: "aal2")

    public var description: String { rawValue }
}
