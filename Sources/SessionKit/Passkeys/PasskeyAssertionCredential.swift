import Foundation
import SessionCore

/// A passkey's signature over a sign-in's challenge: WebAuthn Level 3
/// `AuthenticationResponseJSON` (§5.1, `PublicKeyCredential.toJSON()`).
///
/// Encodes to that JSON, every binary member base64url:
/// `{"id", "rawId", "type": "public-key", "response": {"clientDataJSON",
/// "authenticatorData", "signature", "userHandle"}, "authenticatorAttachment", "clientExtensionResults": {}}`.
public struct PasskeyAssertionCredential: Sendable, Hashable, Codable {
    /// The credential ID of the passkey used (`rawId`; `id` is its base64url).
    public var credentialID: Data
    /// The client data, as the platform serialized it (signed over: never re-encode it).
    public var clientDataJSON: Data
    /// The authenticator data (RP ID hash, flags, signature counter).
    public var authenticatorData: Data
    /// The signature over `authenticatorData ‖ SHA-256(clientDataJSON)`.
    public var signature: Data
    /// The user handle stored with the passkey: how a discoverable sign-in names the account.
    public var userHandle: Data?
    /// `platform` or `cross-platform`, when known.
    public var authenticatorAttachment: String?

    public init(
        credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?,
        authenticatorAttachment: String? = nil
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.authenticatorAttachment = authenticatorAttachment
    }

    private enum Key: String, CodingKey {
        case id, rawId, type, response, authenticatorAttachment, clientExtensionResults
        case clientDataJSON, authenticatorData, signature, userHandle
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        credentialID = try PasskeyWireCoding.optionalBytes(c, .rawId) ?? PasskeyWireCoding.bytes(c, .id)
        authenticatorAttachment = try c.decodeIfPresent(String.self, forKey: .authenticatorAttachment)
        let response = try c.nestedContainer(keyedBy: Key.self, forKey: .response)
        clientDataJSON = try PasskeyWireCoding.bytes(response, .clientDataJSON)
        authenticatorData = try PasskeyWireCoding.bytes(response, .authenticatorData)
        signature = try PasskeyWireCoding.bytes(response, .signature)
        userHandle = try PasskeyWireCoding.optionalBytes(response, .userHandle)
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
        try response.encode(Base64URL.encode(authenticatorData), forKey: .authenticatorData)
        try response.encode(Base64URL.encode(signature), forKey: .signature)
        try response.encodeIfPresent(userHandle.map { Base64URL.encode($0) }, forKey: .userHandle)
    }
}
