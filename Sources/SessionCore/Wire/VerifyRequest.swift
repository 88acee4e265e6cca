/// `POST /auth/v1/verify`: redeem an emailed code, or a link's token, for a session.
public struct VerifyRequest: Sendable, Hashable, Codable {
    /// `email`, `magiclink`, `signup` or `recovery`.
    public var type: String
    /// With `token`: the address the code was sent to.
    public var email: String?
    /// The six-digit code.
    public var token: String?
    /// Instead of `email` and `token`: the link's token.
    public var tokenHash: String?

    public init(type: String, email: String? = nil, token: String? = nil, tokenHash: String? = nil) {
        self.type = type
        self.email = email
        self.token = token
        self.tokenHash = tokenHash
    }

    enum CodingKeys: String, CodingKey {
        case type, email, token
        case tokenHash = "token_hash"
    }
}
