/// `PUT /auth/v1/user` with a new password.
public struct PasswordUpdate: Sendable, Hashable, Codable {
    public var password: String
    /// The current password, when the session signed in too long ago to change it without.
    public var currentPassword: String?
    /// The code `POST /auth/v1/reauthenticate` mailed (GoTrue's `nonce`): proof for a person without a password.
    public var nonce: String?

    public init(password: String, currentPassword: String? = nil, nonce: String? = nil) {
        self.password = password
        self.currentPassword = currentPassword
        self.nonce = nonce
    }

    enum CodingKeys: String, CodingKey {
        case password, nonce
        case currentPassword = "current_password"
    }
}
