/// `POST /auth/v1/token?grant_type=id_token` body: an ID token a provider
/// issued to the app (Sign in with Apple), with the nonce the app chose.
public struct IDTokenRequest: Sendable, Hashable, Codable {
    /// `apple`.
    public var provider: String
    public var idToken: String
    /// The raw nonce; the ID token carries its SHA-256 (hex), as Apple does.
    public var nonce: String?

    public init(provider: String, idToken: String, nonce: String?) {
        self.provider = provider
        self.idToken = idToken
        self.nonce = nonce
    }

    enum CodingKeys: String, CodingKey {
        case provider, nonce
        case idToken = "id_token"
    }
}
