import Foundation
import SessionCore

/// An options answer: GoTrue's envelope `{"challenge_id", "options", "expires_at"}`
/// around the WebAuthn JSON form (docs/PASSKEYS.md).
///
/// GoTrue's registration writes go-webauthn's `CredentialCreation`, which
/// wraps the creation options as `{"publicKey": {...}}`; its sign-in and
/// `auth-server` send the options bare. Both are read.
struct PasskeyChallenge<Options: Decodable & Sendable>: Decodable, Sendable {
    let challengeID: String
    let options: Options
    /// Seconds since 1970, when the server says.
    let expiresAt: Double?

    private enum Key: String, CodingKey {
        case options, publicKey
        case challengeID = "challenge_id"
        case expiresAt = "expires_at"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        challengeID = try c.decode(String.self, forKey: .challengeID)
        expiresAt = try c.decodeIfPresent(Double.self, forKey: .expiresAt)
        let wrapped = try c.nestedContainer(keyedBy: Key.self, forKey: .options)
        if wrapped.contains(.publicKey) {
            options = try wrapped.decode(Options.self, forKey: .publicKey)
        } else {
            options = try c.decode(Options.self, forKey: .options)
        }
    }

    /// Reads an options answer; a body that is not one is ``SessionError/decoding`` naming the field.
    static func decode(_ data: Data) throws(SessionError) -> Self {
        do {
            return try WireCoding.decoder().decode(Self.self, from: data)
        } catch {
            throw SessionError.decoding.with(
                message: "The server's passkey options could not be read.", underlying: BackendDecoding.describe(error))
        }
    }
}
