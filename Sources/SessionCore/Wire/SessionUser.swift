import Foundation

/// A user as GoTrue describes it (`GET /auth/v1/user`, the `user` of a session).
public struct SessionUser: Sendable, Hashable, Codable {
    public var id: String
    public var aud: String
    public var role: String
    public var email: String?
    public var emailConfirmedAt: Date?
    public var phone: String?
    public var lastSignInAt: Date?
    public var userMetadata: [String: JSONValue]
    public var appMetadata: [String: JSONValue]
    public var identities: [UserIdentity]?
    public var isAnonymous: Bool?
    /// When the account was created; `nil` when the server did not say
    /// (custom backends often omit it).
    public var createdAt: Date?
    /// When the account last changed; `nil` when the server did not say.
    public var updatedAt: Date?
    /// Until when the account is banned (GoTrue's `banned_until`); `nil` when it is not.
    public var bannedUntil: Date?

    public init(
        id: String,
        aud: String = "authenticated",
        role: String = "authenticated",
        email: String?,
        emailConfirmedAt: Date? = nil,
        phone: String? = nil,
        lastSignInAt: Date? = nil,
        userMetadata: [String: JSONValue] = [:],
        appMetadata: [String: JSONValue] = [:],
        identities: [UserIdentity]? = nil,
        isAnonymous: Bool? = false,
        createdAt: Date?,
        updatedAt: Date?,
        bannedUntil: Date? = nil
    ) {
        self.id = id
        self.aud = aud
        self.role = role
        self.email = email
        self.emailConfirmedAt = emailConfirmedAt
        self.phone = phone
        self.lastSignInAt = lastSignInAt
        self.userMetadata = userMetadata
        self.appMetadata = appMetadata
        self.identities = identities
        self.isAnonymous = isAnonymous
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.bannedUntil = bannedUntil
    }

    enum CodingKeys: String, CodingKey {
        case id, aud, role, email, phone, identities
        case emailConfirmedAt = "email_confirmed_at"
        case lastSignInAt = "last_sign_in_at"
        case userMetadata = "user_metadata"
        case appMetadata = "app_metadata"
        case isAnonymous = "is_anonymous"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case bannedUntil = "banned_until"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        aud = try c.decodeIfPresent(String.self, forKey: .aud) ?? ""
        role = try c.decodeIfPresent(String.self, forKey: .role) ?? ""
        email = try c.decodeIfPresent(String.self, forKey: .email)
        emailConfirmedAt = try c.decodeIfPresent(Date.self, forKey: .emailConfirmedAt)
        phone = try c.decodeIfPresent(String.self, forKey: .phone)
        lastSignInAt = try c.decodeIfPresent(Date.self, forKey: .lastSignInAt)
        userMetadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .userMetadata) ?? [:]
        appMetadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .appMetadata) ?? [:]
        identities = try c.decodeIfPresent([UserIdentity].self, forKey: .identities)
        isAnonymous = try c.decodeIfPresent(Bool.self, forKey: .isAnonymous)
        createdAt = try c.decodeIfPresent(Date.self, forKey: .createdAt)
        updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt)
        bannedUntil = try c.decodeIfPresent(Date.self, forKey: .bannedUntil)
    }
}

extension SessionUser {
    /// The user an access token describes, for servers whose session body
    /// carries no `user` (the tokens are what matter; the claims name the person).
    ///
    /// - Returns: `nil` when the claims have no subject.
    public init?(claims: JWTClaims) {
        guard let sub = claims.sub, !sub.isEmpty else { return nil }
        self.init(
            id: sub, aud: claims.aud.first ?? "", role: claims.role ?? "", email: claims.email,
            createdAt: nil, updatedAt: nil)
    }
}

/// An outside account linked to a user (GoTrue `identities`).
public struct UserIdentity: Sendable, Hashable, Codable {
    public var id: String
    public var identityId: String?
    public var userId: String
    public var provider: String
    public var identityData: [String: JSONValue]?
    public var createdAt: Date?
    public var updatedAt: Date?
    public var lastSignInAt: Date?

    public init(
        id: String, identityId: String? = nil, userId: String, provider: String,
        identityData: [String: JSONValue]? = nil, createdAt: Date? = nil, updatedAt: Date? = nil,
        lastSignInAt: Date? = nil
    ) {
        self.id = id
        self.identityId = identityId
        self.userId = userId
        self.provider = provider
        self.identityData = identityData
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastSignInAt = lastSignInAt
    }

    enum CodingKeys: String, CodingKey {
        case id, provider
        case identityId = "identity_id"
        case userId = "user_id"
        case identityData = "identity_data"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastSignInAt = "last_sign_in_at"
    }
}
