/// `DELETE /v1/auth/me` body: the proof a deletion needs when the session
/// signed in longer ago than the server's re-authentication window.
public struct AccountDeletion: Sendable, Hashable, Codable {
    /// The account's current password; `nil` sends an empty body.
    public var currentPassword: String?

    public init(currentPassword: String? = nil) {
        self.currentPassword = currentPassword
    }

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
    }
}
