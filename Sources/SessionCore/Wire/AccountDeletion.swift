/// `DELETE /v1/auth/me` body: the proof a deletion needs when the session
/// signed in longer ago than the server's re-authentication window.
public struct AccountDeletion: Sendable, Hashable, Codable {
    /// The account's current password; with `nonce` also `nil`, an empty body is sent.
    public var currentPassword: String?
    /// The code `POST /auth/v1/reauthenticate` mailed: proof for a person without a password.
    public var nonce: String?

    public init(currentPassword: String? = nil, nonce: String? = nil) {
        self.currentPassword = currentPassword
        self.nonce = nonce
    }

    /// True when there is any proof to send (else the request has no body).
    public var carriesProof: Bool { currentPassword != nil || nonce != nil }

    enum CodingKeys: String, CodingKey {
        case nonce
        case currentPassword = "current_password"
    }
}
