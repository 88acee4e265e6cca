import Foundation
import SessionCore

/// A new passkey as the authenticator answered: WebAuthn Level 3
/// `RegistrationResponseJSON` (§5.1, `PublicKeyCredential.toJSON()`).
///
/// Encodes to that JSON, every binary member base64url:
/// `{"id", "rawId", "type": "public-key", "response": {"clientDataJSON",
/// "attestationObject", "transports"}, "authenticatorAttachment", "clientExtensionResults": {}}`.
public struct PasskeyRegistrationCredential: Sendable, Hashable, Codable {
    /// The credential ID the authenticator chose (`rawId`; `id` is its base64url).
    public var credentialID: Data
    /// The client data, as the platform serialized it (its bytes are signed over; never re-encode them).
    public var clientDataJSON: Data
    /// The CBOR attestation object (authenticator data, the public key, the attestation statement).
    public var attestationObject: Data
    /// `internal`, `hybrid`, ... as the platform reports them.
    public var transports: [String]
    /// `platform` or `cross-platform`, when known.
    public var authenticatorAttachment: String?

    public init(
        credentialID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String] = [],
        authenticatorAttachment: String? = nil
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
        self.authenticatorAttachment = authenticatorAttachment
    }

    private enum Key: String, CodingKey {
        case id, rawId, type, response, authenticatorAttachment, clientExtensionResults
        case clientDataJSON, attestationObject, transports
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        credentialID = try PasskeyWireCoding.optionalBytes(c, .rawId) ?? PasskeyWireCoding.bytes(c, .id)
        authenticatorAttachment = try c.decodeIfPresent(String.self, forKey: .authenticatorAttachment)
        let response = try c.nestedContainer(keyedBy: Key.self, forKey: .response)
        clientDataJSON = try PasskeyWireCoding.bytes(response, .clientDataJSON)
        attestationObject = try PasskeyWireCoding.bytes(response, .attestationObject)
        transports = try response.decodeIfPresent([String].self, forKey: .transports) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(Base64URL.encode(credentialID), forKey: .id)
        try c.encode(Base64URL.encode(credentialID), forKey: .rawId)
        try c.encode("public-key", forKey: .type)
        try c.encodeIfPresent(authenticatorAttachment, forKey: .authenticatorAttachment)
        try c.encode([String: String](), forKey: .clientExtensionResults)
        var response = c.nestedContainer(keyedBy: Key.self, forKey: .response)
        try response.encode(Base64URL.encode(clientDataJSON), forKey: .clientDataJSON)
        try response.encode(Base64URL.encode(attestationObject), forKey: .attestationObject)
        try response.encode(transports, forKey: .transports)
    }
}
