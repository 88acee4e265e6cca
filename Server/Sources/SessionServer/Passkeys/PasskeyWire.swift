import Foundation

/// The wire shapes of `/auth/v1/passkeys` (docs/PASSKEYS.md): GoTrue's
/// envelopes around the WebAuthn Level 3 JSON forms (§5.1, `…JSON` types),
/// which `PublicKeyCredential.parseCreationOptionsFromJSON()` and
/// `parseRequestOptionsFromJSON()` read as they are.
enum PasskeyWire {
    /// `{challenge_id, options, expires_at}`, GoTrue's envelope for both
    /// ceremonies. Registration's `options` is GoTrue's `CredentialCreation`
    /// (``CredentialCreation``: `{"publicKey": …}`); authentication's is the
    /// request options themselves (GoTrue's `internal/api/passkey_*.go`).
    struct OptionsResponse<Options: Encodable & Sendable>: Encodable, Sendable {
        var challengeID: String
        var options: Options
        /// Seconds since 1970, as GoTrue sends it.
        var expiresAt: Int

        enum CodingKeys: String, CodingKey {
            case options
            case challengeID = "challenge_id"
            case expiresAt = "expires_at"
        }
    }

    struct Entity: Encodable, Sendable {
        var id: String
        var name: String
    }

    struct UserEntity: Encodable, Sendable {
        /// The user handle, base64url: the user's id, so a discoverable sign-in names the account.
        var id: String
        var name: String
        var displayName: String
    }

    struct Parameter: Encodable, Sendable {
        var type = "public-key"
        var alg: Int
    }

    struct Descriptor: Encodable, Sendable {
        var type = "public-key"
        var id: String
        var transports: [String]?
    }

    struct Selection: Encodable, Sendable {
        /// A discoverable credential: sign-in names no user up front.
        var residentKey = "required"
        var requireResidentKey = true
        var userVerification = "required"
    }

    /// GoTrue's registration `options`: the creation options under
    /// `publicKey`, as `navigator.credentials.create()` takes them.
    struct CredentialCreation: Encodable, Sendable {
        var publicKey: CreationOptions
    }

    /// `PublicKeyCredentialCreationOptionsJSON`.
    struct CreationOptions: Encodable, Sendable {
        var rp: Entity
        var user: UserEntity
        var challenge: String
        var pubKeyCredParams: [Parameter]
        var timeout: Int
        var excludeCredentials: [Descriptor]
        var authenticatorSelection = Selection()
        /// No attestation is asked for: the server keeps no attestation root store.
        var attestation = "none"
    }

    /// `PublicKeyCredentialRequestOptionsJSON`.
    struct RequestOptions: Encodable, Sendable {
        var challenge: String
        var timeout: Int
        var rpId: String
        /// Empty: the authenticator offers the person's passkeys for this RP ID.
        var allowCredentials: [Descriptor] = []
        var userVerification = "required"
    }

    /// `{challenge_id, credential}`: the credential in its JSON form. GoTrue's
    /// registration names it `credential_response`; both are read.
    struct VerifyRequest: Decodable, Sendable {
        var challengeID: String
        var credential: CredentialJSON
        /// A name for a new passkey (registration only).
        var friendlyName: String?

        enum CodingKeys: String, CodingKey {
            case credential
            case challengeID = "challenge_id"
            case credentialResponse = "credential_response"
            case friendlyName = "friendly_name"
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            challengeID = try c.decode(String.self, forKey: .challengeID)
            friendlyName = try c.decodeIfPresent(String.self, forKey: .friendlyName)
            if c.contains(.credentialResponse), !c.contains(.credential) {
                credential = try c.decode(CredentialJSON.self, forKey: .credentialResponse)
            } else {
                credential = try c.decode(CredentialJSON.self, forKey: .credential)
            }
        }
    }

    /// `RegistrationResponseJSON` / `AuthenticationResponseJSON`: every binary field base64url.
    struct CredentialJSON: Decodable, Sendable {
        var id: String
        var rawId: String
        var type: String
        var response: Response

        struct Response: Decodable, Sendable {
            var clientDataJSON: String
            /// Registration.
            var attestationObject: String?
            var transports: [String]?
            /// Authentication.
            var authenticatorData: String?
            var signature: String?
            var userHandle: String?
        }
    }

    /// `PATCH /passkeys/{id}`.
    struct UpdateRequest: Decodable, Sendable {
        var friendlyName: String

        enum CodingKeys: String, CodingKey { case friendlyName = "friendly_name" }
    }

    /// A passkey as the API shows it (GoTrue's fields, and the backup flags).
    struct Passkey: Encodable, Sendable {
        var id: String
        var friendlyName: String?
        var createdAt: Date
        var lastUsedAt: Date?
        var backupEligible: Bool
        var backedUp: Bool
        var transports: [String]

        enum CodingKeys: String, CodingKey {
            case id, transports
            case friendlyName = "friendly_name"
            case createdAt = "created_at"
            case lastUsedAt = "last_used_at"
            case backupEligible = "backup_eligible"
            case backedUp = "backed_up"
        }

        init(_ record: PasskeyRecord) {
            id = record.id
            friendlyName = record.friendlyName
            createdAt = record.createdAt
            lastUsedAt = record.lastUsedAt
            backupEligible = record.backupEligible
            backedUp = record.backedUp
            transports = record.transports
        }
    }
}
