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
    /// The second factors (GoTrue's `factors`); `nil` when the user has none, as GoTrue leaves the key out.
    public var factors: [UserFactor]?
    /// The address an email change waits to confirm (GoTrue's `new_email`);
    /// `nil` when no change is pending. The account's address is still ``email``
    /// until the change is confirmed (docs/ACCOUNTS.md, "A confirmed email change").
    public var newEmail: String? = nil
    /// When the email change's codes were last sent (GoTrue's `email_change_sent_at`).
    public var emailChangeSentAt: Date? = nil

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
        bannedUntil: Date? = nil,
        factors: [UserFactor]?
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
        self.factors = factors
    }

    enum CodingKeys: String, CodingKey {
        case id, aud, role, email, phone, identities, factors
        case emailConfirmedAt = "email_confirmed_at"
        case lastSignInAt = "last_sign_in_at"
        case userMetadata = "user_metadata"
        case appMetadata = "app_metadata"
        case isAnonymous = "is_anonymous"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case bannedUntil = "banned_until"
        case newEmail = "new_email"
        case emailChangeSentAt = "email_change_sent_at"
    }

    /// A user without second factors: 0.4.0's initializer, kept so that code
    /// written against it still builds (scripts/check-api.sh).
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
        self.init(
            id: id, aud: aud, role: role, email: email, emailConfirmedAt: emailConfirmedAt, phone: phone,
            lastSignInAt: lastSignInAt, userMetadata: userMetadata, appMetadata: appMetadata, identities: identities,
            isAnonymous: isAnonymous, createdAt: createdAt, updatedAt: updatedAt, bannedUntil: bannedUntil, factors: nil)
    }

    /// Reads a user leniently: only `id` is required (a string or an integer).
    ///
    /// Any other field that cannot be read (an `aud` array is read as its
    /// first audience, dates in the shapes ``LenientDecoding/date(_:)`` reads)
    /// is dropped and reported to the decoder's ``DroppedFields``: the user is
    /// a convenience, and a session answer must never be lost for it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = LenientDecoding.identifier(try c.decodeIfPresent(JSONValue.self, forKey: .id)) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: c, debugDescription: "id is missing or not a string or an integer")
        }
        self.id = id
        var fields = LenientFields(container: c, decoder: decoder)
        aud = fields.audience(.aud) ?? ""
        role = fields.string(.role) ?? ""
        email = fields.string(.email)
        emailConfirmedAt = fields.date(.emailConfirmedAt)
        phone = fields.string(.phone)
        lastSignInAt = fields.date(.lastSignInAt)
        userMetadata = fields.object(.userMetadata) ?? [:]
        appMetadata = fields.object(.appMetadata) ?? [:]
        identities = fields.decode([LenientIdentity].self, .identities).map { $0.compactMap(\.identity) }
        isAnonymous = fields.bool(.isAnonymous)
        createdAt = fields.date(.createdAt)
        updatedAt = fields.date(.updatedAt)
        bannedUntil = fields.date(.bannedUntil)
        factors = fields.decode([UserFactor].self, .factors)
        newEmail = fields.string(.newEmail)
        emailChangeSentAt = fields.date(.emailChangeSentAt)
    }
}

/// One element of `identities`: an unreadable identity is dropped, not the user.
private struct LenientIdentity: Decodable {
    let identity: UserIdentity?
    init(from decoder: any Decoder) throws {
        do {
            identity = try UserIdentity(from: decoder)
        } catch {
            identity = nil
            DroppedFields.report(UserIdentity.CodingKeys.id, in: decoder)
        }
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

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = LenientDecoding.identifier(try c.decodeIfPresent(JSONValue.self, forKey: .id)),
            let userId = LenientDecoding.identifier(try c.decodeIfPresent(JSONValue.self, forKey: .userId))
        else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: c, debugDescription: "an identity needs id and user_id")
        }
        self.id = id
        self.userId = userId
        var fields = LenientFields(container: c, decoder: decoder)
        identityId = fields.identifier(.identityId)
        provider = fields.string(.provider) ?? ""
        identityData = fields.object(.identityData)
        createdAt = fields.date(.createdAt)
        updatedAt = fields.date(.updatedAt)
        lastSignInAt = fields.date(.lastSignInAt)
    }
}
