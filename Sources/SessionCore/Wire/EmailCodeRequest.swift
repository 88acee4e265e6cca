/// `POST /auth/v1/otp`: mail a sign-in code (and link) to an address.
public struct EmailCodeRequest: Sendable, Hashable, Codable {
    public var email: String
    /// Create the account when the address has none (GoTrue's default, true).
    public var createUser: Bool?
    /// Metadata for an account created by this code.
    public var data: [String: JSONValue]?

    public init(email: String, createUser: Bool? = nil, data: [String: JSONValue]? = nil) {
        self.email = email
        self.createUser = createUser
        self.data = data
    }

    enum CodingKeys: String, CodingKey {
        case email, data
        case createUser = "create_user"
    }
}

/// `POST /auth/v1/recover`: mail a password-reset code (and link).
public struct PasswordResetRequest: Sendable, Hashable, Codable {
    public var email: String

    public init(email: String) {
        self.email = email
    }
}
