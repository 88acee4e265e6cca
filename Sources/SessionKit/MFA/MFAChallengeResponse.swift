import Foundation

/// A challenge of a factor (`POST /auth/v1/factors/{id}/challenge`): answer
/// it with a code before ``expiresAt``.
public struct MFAChallengeResponse: Sendable, Hashable, Codable {
    /// The challenge's id, for ``SessionMFA/verify(factorId:challengeId:code:)``.
    public var id: String
    /// `totp`.
    public var type: String
    /// When the challenge stops being accepted, in seconds since 1970 (server time), as GoTrue sends it.
    public var expiresAt: Int

    public init(id: String, type: String, expiresAt: Int) {
        self.id = id
        self.type = type
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case id, type
        case expiresAt = "expires_at"
    }
}
