import Foundation
import SessionCore

// The sample protected resource of the gateway (`/v1/activities`). It lives in
// the server, not in SessionCore: an app that imports SessionKit must not get
// a public `Activity` that collides with ActivityKit's.

/// The sample protected resource: an activity owned by one user.
public struct Activity: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var distanceM: Double
    public var startedAt: Date
    public init(id: String, name: String, distanceM: Double, startedAt: Date) {
        self.id = id
        self.name = name
        self.distanceM = distanceM
        self.startedAt = startedAt
    }
    enum CodingKeys: String, CodingKey {
        case id, name
        case distanceM = "distance_m"
        case startedAt = "started_at"
    }
}

/// `POST /v1/activities` body.
public struct NewActivity: Sendable, Hashable, Codable {
    public var name: String
    public var distanceM: Double
    public var startedAt: Date
    public init(name: String, distanceM: Double, startedAt: Date) {
        self.name = name
        self.distanceM = distanceM
        self.startedAt = startedAt
    }
    enum CodingKeys: String, CodingKey {
        case name
        case distanceM = "distance_m"
        case startedAt = "started_at"
    }
}
