import Foundation
import SessionCore

/// A sign-in's options: WebAuthn Level 3 `PublicKeyCredentialRequestOptionsJSON`
/// (§5.5), as the server sends them, read.
///
/// GoTrue's sign-in is discoverable: ``allowedCredentialIDs`` is empty and
/// the authenticator offers the person's passkeys for ``relyingPartyID``.
public struct PasskeyRequestOptions: Sendable, Hashable, Decodable {
    public let challenge: Data
    /// `rpId`: the domain the passkeys belong to.
    public let relyingPartyID: String
    /// How long the ceremony may take, when the server says (`timeout`, milliseconds on the wire).
    public let timeout: Duration?
    /// `allowCredentials[].id`; empty for a discoverable sign-in.
    public let allowedCredentialIDs: [Data]
    /// `userVerification`.
    public let userVerification: String?
    /// The options object as the server sent it.
    public let json: JSONValue

    public init(from decoder: any Decoder) throws {
        json = try JSONValue(from: decoder)
        let c = try decoder.container(keyedBy: Key.self)
        challenge = try PasskeyWireCoding.bytes(c, .challenge)
        relyingPartyID = try c.decode(String.self, forKey: .rpId)
        timeout = try c.decodeIfPresent(Int.self, forKey: .timeout).map { .milliseconds($0) }
        allowedCredentialIDs = try PasskeyWireCoding.descriptorIDs(c, .allowCredentials)
        userVerification = try c.decodeIfPresent(String.self, forKey: .userVerification)
    }

    private enum Key: String, CodingKey {
        case challenge, rpId, timeout, allowCredentials, userVerification
    }
}
