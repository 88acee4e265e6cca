import Foundation

/// A stored passkey: a WebAuthn credential and what the server learned of it.
struct PasskeyRecord: Sendable, Hashable {
    var id: String
    var userID: String
    /// The credential ID, base64url without padding: what a `get()` answer names.
    var credentialID: String
    /// The COSE_Key bytes the authenticator sent at registration.
    var publicKey: [UInt8]
    /// The COSE algorithm (-7 ES256, -8 EdDSA).
    var algorithm: Int
    /// The highest signature counter seen; 0 for authenticators without one (synced passkeys).
    var signCount: UInt32
    /// BE: the credential may be synced to the person's other devices.
    var backupEligible: Bool
    /// BS: it was backed up at its last use.
    var backedUp: Bool
    /// Transports the client reported (`internal`, `hybrid`, `usb`…), offered back in `excludeCredentials`.
    var transports: [String]
    /// The authenticator model's AAGUID, hex (zeros for most passkeys).
    var aaguid: String
    var friendlyName: String?
    var createdAt: Date
    var lastUsedAt: Date?
}

/// An outstanding ceremony challenge (WebAuthn Level 3 §13.4.3): random,
/// single use, short-lived, tied to the person for a registration.
struct WebAuthnChallengeRecord: Sendable, Hashable {
    enum Kind: String, Sendable {
        case registration, authentication
    }

    var id: String
    var kind: Kind
    /// The account a registration adds to; `nil` for a sign-in (no user named up front).
    var userID: String?
    var challenge: [UInt8]
    var expiresAt: Date
}
