/// `PUT /auth/v1/user`: what a signed-in person may change, as GoTrue's
/// `updateUser` takes it. Fields left `nil` are not sent and stay as they are.
public struct UserAttributes: Sendable, Hashable, Codable {
    /// A new email address (GoTrue mails a confirmation to it first).
    public var email: String?
    /// A new password.
    public var password: String?
    /// Metadata merged into `user_metadata` (GoTrue's `data`).
    public var data: [String: JSONValue]?
    /// The current password, when the server wants fresh proof for a password change.
    public var currentPassword: String?
    /// The code from `reauthenticate()`'s email, GoTrue's other kind of fresh proof.
    public var nonce: String?

    public init(
        email: String? = nil, password: String? = nil, data: [String: JSONValue]? = nil,
        currentPassword: String? = nil, nonce: String? = nil
    ) {
        self.email = email
        self.password = password
        self.data = data
        self.currentPassword = currentPassword
        self.nonce = nonce
    }

    enum CodingKeys: String, CodingKey {
        case email, password, data, nonce
        case currentPassword = "current_password"
    }
}
