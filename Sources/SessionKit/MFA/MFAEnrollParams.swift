/// What enrolling a TOTP factor asks for (`POST /auth/v1/factors`).
public struct MFAEnrollParams: Sendable, Hashable, Codable {
    /// `totp`: the one factor type this SDK enrols.
    public var factorType: String
    /// The name the person gives the factor ("Ada's phone"); unique per user.
    public var friendlyName: String?
    /// The name authenticator apps show beside the code; the server's host when `nil`.
    public var issuer: String?

    public init(issuer: String? = nil, friendlyName: String? = nil) {
        self.factorType = "totp"
        self.issuer = issuer
        self.friendlyName = friendlyName
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case factorType = "factor_type"
        case friendlyName = "friendly_name"
    }
}
