import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// The options answers have GoTrue's exact envelope (`internal/api/passkey_registration.go`,
/// `passkey_authentication.go`; docs/PASSKEYS.md): registration's options sit under
/// `publicKey` (go-webauthn's `CredentialCreation`), authentication's do not.
struct PasskeyWireShapeTests {
    @Test func registrationOptionsWrapTheCreationOptionsInPublicKey() async throws {
        let test = try await PasskeyTestSupport.server()
        try await test.run { client in
            let session = try await client.signUp()
            let response = try await client.send(.post, "/auth/v1/passkeys/registration/options", bearer: session.accessToken)
            let object = try response.jsonObject()
            #expect(Set(object.keys) == ["challenge_id", "options", "expires_at"])
            let options = try #require(object["options"] as? [String: Any])
            #expect(Set(options.keys) == ["publicKey"])
            let creation = try #require(options["publicKey"] as? [String: Any])
            let rp = try #require(creation["rp"] as? [String: Any])
            #expect(rp["id"] as? String == "example.com")
            let user = try #require(creation["user"] as? [String: Any])
            // GoTrue's user handle: the user's id as text, base64url.
            #expect(user["id"] as? String == Base64URL.encode(Data((session.user?.id ?? "").utf8)))
            #expect(creation["challenge"] is String)
        }
    }

    @Test func authenticationOptionsAreTheRequestOptionsThemselves() async throws {
        let test = try await PasskeyTestSupport.server()
        try await test.run { client in
            let response = try await client.send(.post, "/auth/v1/passkeys/authentication/options")
            let object = try response.jsonObject()
            #expect(Set(object.keys) == ["challenge_id", "options", "expires_at"])
            let options = try #require(object["options"] as? [String: Any])
            #expect(options["publicKey"] == nil)
            #expect(options["rpId"] as? String == "example.com")
            #expect(options["userVerification"] as? String == "required")
        }
    }

    @Test func registrationVerifyReadsGoTruesCredentialResponseField() async throws {
        let test = try await PasskeyTestSupport.server()
        try await test.run { client in
            let session = try await client.signUp()
            let options = try PasskeyTestSupport.challenge(
                try await client.send(.post, "/auth/v1/passkeys/registration/options", bearer: session.accessToken))
            let credential = SoftwareAuthenticator().registrationJSON(challenge: options.challenge)
            let response = try await client.send(
                .post, "/auth/v1/passkeys/registration/verify",
                json: #"{"challenge_id":"\#(options.id)","credential_response":\#(credential)}"#, bearer: session.accessToken)
            #expect(response.status == .ok, "\(response.text)")
        }
    }
}
