import Foundation

/// A passkey of the signed-in account, as `GET /auth/v1/passkeys` lists it
/// (GoTrue's fields; the backup flags and transports where the server sends them).
public struct Passkey: Sendable, Hashable, Identifiable, Codable {
    /// The server's id for the passkey (for ``SessionClient/renamePasskey(id:friendlyName:)``
    /// and ``SessionClient/deletePasskey(id:)``); not the credential ID.
    public let id: String
    public let friendlyName: String?
    public let createdAt: Date
    /// The last sign-in with it; `nil` before the first.
    public let lastUsedAt: Date?
    /// The authenticator may sync it (`BE`): a synced passkey survives a lost device.
    public let backupEligible: Bool?
    /// It is synced now (`BS`).
    public let backedUp: Bool?
    public let transports: [String]?

    public init(
        id: String, friendlyName: String? = nil, createdAt: Date, lastUsedAt: Date? = nil, backupEligible: Bool? = nil,
        backedUp: Bool? = nil, transports: [String]? = nil
    ) {
        self.id = id
        self.friendlyName = friendlyName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.transports = transports
    }

    enum CodingKeys: String, CodingKey {
        case id, transports
        case friendlyName = "friendly_name"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case backupEligible = "backup_eligible"
        case backedUp = "backed_up"
    }
}
