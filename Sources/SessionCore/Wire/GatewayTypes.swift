import Foundation

/// `{"success": true, "data": …}`: every gateway (`/v1`) success.
public struct SuccessEnvelope<Payload: Codable & Sendable>: Codable, Sendable {
    public var success: Bool
    public var data: Payload
    public init(data: Payload) {
        self.success = true
        self.data = data
    }
}

/// `PATCH /v1/auth/me` body: the profile fields a person may change.
public struct ProfileUpdate: Sendable, Hashable, Codable {
    public var firstName: String?
    /// Free-form metadata merged into the user's metadata.
    public var metadata: [String: JSONValue]?
    public init(firstName: String? = nil, metadata: [String: JSONValue]? = nil) {
        self.firstName = firstName
        self.metadata = metadata
    }
    enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case metadata
    }
}

/// One signed-in device in `GET /v1/sessions`.
public struct DeviceSession: Sendable, Hashable, Codable {
    public var id: String
    public var createdAt: Date
    public var lastRefreshedAt: Date?
    public var userAgent: String?
    public var ip: String?
    /// True for the session the request was made with.
    public var current: Bool
    public init(
        id: String, createdAt: Date, lastRefreshedAt: Date?, userAgent: String?, ip: String?, current: Bool
    ) {
        self.id = id
        self.createdAt = createdAt
        self.lastRefreshedAt = lastRefreshedAt
        self.userAgent = userAgent
        self.ip = ip
        self.current = current
    }
    enum CodingKeys: String, CodingKey {
        case id, ip, current
        case createdAt = "created_at"
        case lastRefreshedAt = "last_refreshed_at"
        case userAgent = "user_agent"
    }
}
