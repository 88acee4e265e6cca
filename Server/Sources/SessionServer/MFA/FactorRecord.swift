import Foundation
import SessionCore

/// A stored second factor. The TOTP secret stays sealed under the
/// key-encryption key here; only ``FactorService`` opens it, to check a code.
struct FactorRecord: Sendable, Hashable {
    var id: String
    var userID: String
    var friendlyName: String?
    var factorType: String
    /// `unverified` until a code was accepted for it, then `verified`.
    var status: String
    /// `sealed:v1:…`, bound to the factor's id (``KeyEncryptionKey``).
    var sealedSecret: String
    var createdAt: Date
    var updatedAt: Date
    var lastChallengedAt: Date?
    /// The newest 30-second step a code was accepted for: codes of it and older ones are spent.
    var lastStep: Int64?

    var isVerified: Bool { status == FactorRecord.verified }

    static let verified = "verified"
    static let unverified = "unverified"
    static let totp = "totp"

    /// The factor as GoTrue lists it (no secret).
    var userFactor: UserFactor {
        UserFactor(
            id: id, friendlyName: friendlyName, factorType: factorType, status: status, createdAt: createdAt,
            updatedAt: updatedAt, lastChallengedAt: lastChallengedAt)
    }
}

/// A challenge: a factor's "a code is coming", valid five minutes (GoTrue's default).
struct ChallengeRecord: Sendable, Hashable {
    var id: String
    var factorID: String
    var createdAt: Date
    var verifiedAt: Date?
    /// Where it was asked from; the code must come from the same address, as GoTrue checks.
    var ip: String?
}
