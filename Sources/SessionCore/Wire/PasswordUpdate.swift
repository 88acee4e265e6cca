/// `PUT /auth/v1/user` with a new password.
public struct PasswordUpdate: Sendable, Hashable, Codable {
    public var password: String
    /// The current password, when the session signed in too long ago to change it without.
    public var currentPassword: String?

    public init(password: String, currentPassword: String? = nil) {
        self.password = password
        self.currentPassword = currentPassword
    }

    enum CodingKeys: String, CodingKey {
        case password
        case currentPassword = "current_password"
    }
}
