import Foundation
import SessionCore

/// A registration's options: WebAuthn Level 3 `PublicKeyCredentialCreationOptionsJSON`
/// (§5.4), as the server sends them, read.
///
/// Binary members (`challenge`, `user.id`, the excluded credentials' `id`)
/// arrive base64url and are decoded here; ``json`` keeps the object as sent,
/// for a ceremony that hands it on as it is (a web view's
/// `PublicKeyCredential.parseCreationOptionsFromJSON()`).
public struct PasskeyCreationOptions: Sendable, Hashable, Decodable {
    /// The RP ID (`rp.id`): the domain the passkey belongs to.
    public let relyingPartyID: String
    /// The name authenticators show for the RP (`rp.name`).
    public let relyingPartyName: String
    /// The user handle (`user.id`), stored with the passkey and returned at sign-in.
    public let userID: Data
    /// `user.name`: the account's name as the sheet shows it.
    public let userName: String
    /// `user.displayName`.
    public let userDisplayName: String
    public let challenge: Data
    /// The COSE algorithms the server accepts, in its order (`pubKeyCredParams[].alg`; -7 is ES256).
    public let algorithms: [Int]
    /// How long the ceremony may take, when the server says (`timeout`, milliseconds on the wire).
    public let timeout: Duration?
    /// Credentials the account holds already (`excludeCredentials[].id`).
    public let excludedCredentialIDs: [Data]
    /// `authenticatorSelection.residentKey` (`required`: a discoverable credential).
    public let residentKey: String?
    /// `authenticatorSelection.userVerification`.
    public let userVerification: String?
    /// `attestation` (`none` when absent).
    public let attestation: String
    /// The options object as the server sent it.
    public let json: JSONValue

    public init(from decoder: any Decoder) throws {
        json = try JSONValue(from: decoder)
        let c = try decoder.container(keyedBy: Key.self)
        let rp = try c.nestedContainer(keyedBy: Key.self, forKey: .rp)
        relyingPartyID = try rp.decode(String.self, forKey: .id)
        relyingPartyName = try rp.decodeIfPresent(String.self, forKey: .name) ?? relyingPartyID
        let user = try c.nestedContainer(keyedBy: Key.self, forKey: .user)
        userID = try PasskeyWireCoding.bytes(user, .id)
        userName = try user.decode(String.self, forKey: .name)
        userDisplayName = try user.decodeIfPresent(String.self, forKey: .displayName) ?? userName
        challenge = try PasskeyWireCoding.bytes(c, .challenge)
        algorithms = try c.decode([PasskeyWireCoding.Parameter].self, forKey: .pubKeyCredParams).map(\.alg)
        timeout = try c.decodeIfPresent(Int.self, forKey: .timeout).map { .milliseconds($0) }
        excludedCredentialIDs = try PasskeyWireCoding.descriptorIDs(c, .excludeCredentials)
        let selection = try c.decodeIfPresent(PasskeyWireCoding.Selection.self, forKey: .authenticatorSelection)
        residentKey = selection?.residentKey
        userVerification = selection?.userVerification
        attestation = try c.decodeIfPresent(String.self, forKey: .attestation) ?? "none"
    }

    private enum Key: String, CodingKey {
        case rp, user, id, name, displayName, challenge, pubKeyCredParams, timeout, excludeCredentials
        case authenticatorSelection, attestation
    }
}
