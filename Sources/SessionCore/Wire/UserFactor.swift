import Foundation

/// One second factor of a user, as GoTrue lists it in `user.factors`
/// (`internal/models/factor.go`): never its secret.
public struct UserFactor: Sendable, Hashable, Codable {
    public var id: String
    /// The name the person gave it; GoTrue leaves it out when empty.
    public var friendlyName: String?
    /// `totp` (GoTrue also knows `phone` and `webauthn`).
    public var factorType: String
    /// `verified` once a code was accepted for it, `unverified` before.
    public var status: String
    public var createdAt: Date?
    public var updatedAt: Date?
    public var lastChallengedAt: Date?

    public init(
        id: String, friendlyName: String?, factorType: String, status: String, createdAt: Date?, updatedAt: Date?,
        lastChallengedAt: Date? = nil
    ) {
        self.id = id
        self.friendlyName = friendlyName
        self.factorType = factorType
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastChallengedAt = lastChallengedAt
    }

    /// True once the factor counts toward AAL2.
    public var isVerified: Bool { status == "verified" }

    enum CodingKeys: String, CodingKey {
        case id, status
        case friendlyName = "friendly_name"
        case factorType = "factor_type"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastChallengedAt = "last_challenged_at"
    }
}
