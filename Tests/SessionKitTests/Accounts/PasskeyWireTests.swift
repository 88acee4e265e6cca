import Foundation
import SessionCore
import Testing

@testable import SessionKit

/// The WebAuthn Level 3 JSON forms the ceremony reads and writes, and GoTrue's
/// envelope around them (docs/PASSKEYS.md, "The wire shapes").
struct PasskeyWireTests {
    static let creation = """
        {"challenge_id": "7d2b", "expires_at": 1795000300, "options": {"publicKey": {
         "rp": {"id": "example.com", "name": "Example"},
         "user": {"id": "YWRh", "name": "ada@example.com", "displayName": "Ada"},
         "challenge": "AAECAw", "pubKeyCredParams": [{"type": "public-key", "alg": -7}, {"type": "public-key", "alg": -8}],
         "timeout": 300000, "excludeCredentials": [{"type": "public-key", "id": "CQk", "transports": ["internal"]}],
         "authenticatorSelection": {"residentKey": "required", "userVerification": "required"}}}}
        """

    @Test func readsGoTruesWrappedCreationOptions() throws {
        let challenge = try PasskeyChallenge<PasskeyCreationOptions>.decode(Data(Self.creation.utf8))
        let options = challenge.options
        #expect(challenge.challengeID == "7d2b")
        #expect(challenge.expiresAt == 1_795_000_300)
        #expect(options.relyingPartyID == "example.com")
        #expect(options.userID == Data("ada".utf8))
        #expect(options.userDisplayName == "Ada")
        #expect(options.challenge == Data([0, 1, 2, 3]))
        #expect(options.algorithms == [-7, -8])
        #expect(options.timeout == .seconds(300))
        #expect(options.excludedCredentialIDs == [Data([9, 9])])
        #expect(options.residentKey == "required")
        // Absent means "none" (WebAuthn Level 3 §5.4).
        #expect(options.attestation == "none")
        // Kept as sent, for a ceremony that hands the JSON on.
        guard case .object(let json) = options.json else { Issue.record("not an object"); return }
        #expect(json["rp"] == .object(["id": .string("example.com"), "name": .string("Example")]))
    }

    @Test func readsBareRequestOptions() throws {
        let body = #"{"challenge_id": "c1", "expires_at": 1, "options": {"challenge": "AAECAw", "rpId": "example.com", "allowCredentials": [], "userVerification": "required"}}"#
        let options = try PasskeyChallenge<PasskeyRequestOptions>.decode(Data(body.utf8)).options
        #expect(options.relyingPartyID == "example.com")
        #expect(options.allowedCredentialIDs.isEmpty)
        #expect(options.timeout == nil)
    }

    @Test func optionsThatAreNotBase64URLAreADecodingErrorNamingTheField() {
        let body = #"{"challenge_id": "c1", "options": {"challenge": "not base64!", "rpId": "example.com"}}"#
        let error = #expect(throws: SessionError.self) { try PasskeyChallenge<PasskeyRequestOptions>.decode(Data(body.utf8)) }
        #expect(error == .decoding)
        #expect(error?.underlying?.contains("challenge") == true)
    }

    @Test func writesAuthenticationResponseJSONAndReadsItBack() throws {
        let credential = PasskeyAssertionCredential(
            credentialID: Data([0xFB, 0xFF]), clientDataJSON: Data("{}".utf8), authenticatorData: Data([1]), signature: Data([2]),
            userHandle: Data("ada".utf8))
        let data = try JSONEncoder().encode(credential)
        let json = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        // base64url without padding, as PublicKeyCredential.toJSON() writes it.
        #expect(json["id"] as? String == "-_8")
        #expect(json["rawId"] as? String == "-_8")
        #expect(json["type"] as? String == "public-key")
        let response = try #require(json["response"] as? [String: String])
        #expect(response == ["clientDataJSON": "e30", "authenticatorData": "AQ", "signature": "Ag", "userHandle": "YWRh"])
        #expect(try JSONDecoder().decode(PasskeyAssertionCredential.self, from: data) == credential)
    }

    @Test func writesRegistrationResponseJSONAndReadsItBack() throws {
        let credential = PasskeyRegistrationCredential(
            credentialID: Data([1, 2]), clientDataJSON: Data("{}".utf8), attestationObject: Data([0xA0]), transports: ["internal"])
        let data = try JSONEncoder().encode(credential)
        let json = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(json.keys) == ["id", "rawId", "type", "response", "clientExtensionResults"])
        #expect(try JSONDecoder().decode(PasskeyRegistrationCredential.self, from: data) == credential)
    }

    @Test func readsGoTruesPasskeyListItemWithNanoseconds() throws {
        let body = #"[{"id": "p1", "created_at": "2026-11-27T17:00:00.123456789Z"}]"#
        let list = try BackendDecoding.decode([Passkey].self, from: Data(body.utf8), what: "passkey list")
        #expect(list.first?.friendlyName == nil)
        #expect(list.first?.lastUsedAt == nil)
        let expected = try #require(WireCoding.parseDate("2026-11-27T17:00:00Z"))
        let createdAt = try #require(list.first?.createdAt)
        #expect(abs(createdAt.timeIntervalSince(expected) - 0.123) < 0.001)
    }
}
