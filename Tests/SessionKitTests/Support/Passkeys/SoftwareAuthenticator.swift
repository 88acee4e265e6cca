#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation
import SessionCore
import SessionKit

/// A platform authenticator in software, as a ``PasskeyCeremony``: ES256 keys
/// (swift-crypto), real authenticator data, client data JSON and an
/// attestation object with attestation `none` (WebAuthn Level 3 §6.1, §6.5, §8.7).
///
/// Knobs make it misbehave as a phished page or a broken platform would:
/// another origin in the client data, another RP ID hashed, a cancelled sheet.
actor SoftwareAuthenticator: PasskeyCeremony {
    struct Credential {
        let id: Data
        let key: P256.Signing.PrivateKey
        let rpID: String
        let userHandle: Data
        var counter: UInt32
    }

    /// The origin written into the client data (a real platform writes the page's, or `https://<RP ID>` for an app).
    var origin: String
    /// Hashes this instead of the options' RP ID when set.
    var rpIDOverride: String?
    /// Closes the sheet instead of answering.
    var cancels = false
    /// Signs this challenge instead of the one given, when set (a replayed or stale answer).
    var challengeOverride: Data?
    private(set) var credentials: [Credential] = []
    private(set) var ceremonies = 0

    init(origin: String = "https://example.com") {
        self.origin = origin
    }

    func set(origin: String? = nil, rpIDOverride: String? = nil, cancels: Bool? = nil, challengeOverride: Data? = nil) {
        if let origin { self.origin = origin }
        if let rpIDOverride { self.rpIDOverride = rpIDOverride }
        if let cancels { self.cancels = cancels }
        if let challengeOverride { self.challengeOverride = challengeOverride }
    }

    func createCredential(_ options: PasskeyCreationOptions) async throws(SessionError) -> PasskeyRegistrationCredential {
        ceremonies += 1
        if cancels { throw SessionError.cancelled }
        guard options.algorithms.contains(-7) else { throw SessionError.unsupported.with(message: "ES256 not offered") }
        let key = P256.Signing.PrivateKey()
        let id = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        credentials.append(Credential(id: id, key: key, rpID: options.relyingPartyID, userHandle: options.userID, counter: 0))
        let clientData = clientDataJSON(type: "webauthn.create", challenge: options.challenge)
        // §6.1: rpIdHash, flags UP|UV|BE|BS|AT, signCount 0, then the attested credential data.
        var authData = rpIDHash(options.relyingPartyID)
        authData.append(0x01 | 0x04 | 0x08 | 0x10 | 0x40)
        authData.append(contentsOf: CBOR.bigEndian(0, bytes: 4))
        authData.append(Data(count: 16))  // AAGUID: zero, as attestation "none" allows
        authData.append(contentsOf: CBOR.bigEndian(UInt64(id.count), bytes: 2))
        authData.append(id)
        authData.append(coseKey(key.publicKey))
        let attestation = CBOR.encode(
            .map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))]))
        return PasskeyRegistrationCredential(
            credentialID: id, clientDataJSON: clientData, attestationObject: attestation, transports: ["internal"],
            authenticatorAttachment: "platform")
    }

    func getAssertion(_ options: PasskeyRequestOptions) async throws(SessionError) -> PasskeyAssertionCredential {
        ceremonies += 1
        if cancels { throw SessionError.cancelled }
        let allowed = options.allowedCredentialIDs
        guard let index = credentials.lastIndex(where: { $0.rpID == options.relyingPartyID && (allowed.isEmpty || allowed.contains($0.id)) })
        else { throw SessionError.notFound.with(message: "No passkey for \(options.relyingPartyID)") }
        credentials[index].counter += 1
        let credential = credentials[index]
        let clientData = clientDataJSON(type: "webauthn.get", challenge: options.challenge)
        var authData = rpIDHash(options.relyingPartyID)
        authData.append(0x01 | 0x04 | 0x08 | 0x10)
        authData.append(contentsOf: CBOR.bigEndian(UInt64(credential.counter), bytes: 4))
        // §6.3.3: the signature is over authenticatorData ‖ SHA-256(clientDataJSON), DER-encoded for ES256.
        let signed = authData + Data(SHA256.hash(data: clientData))
        let signature: Data
        do {
            signature = try credential.key.signature(for: signed).derRepresentation
        } catch {
            throw SessionError.requestFailed.with(underlying: "\(error)")
        }
        return PasskeyAssertionCredential(
            credentialID: credential.id, clientDataJSON: clientData, authenticatorData: authData, signature: signature,
            userHandle: credential.userHandle, authenticatorAttachment: "platform")
    }

    /// §5.8.1: `type`, `challenge` (base64url), `origin`, `crossOrigin`, in that order, as browsers write it.
    private func clientDataJSON(type: String, challenge: Data) -> Data {
        let signedChallenge = Base64URL.encode(challengeOverride ?? challenge)
        return Data(#"{"type":"\#(type)","challenge":"\#(signedChallenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    private func rpIDHash(_ rpID: String) -> Data {
        Data(SHA256.hash(data: Data((rpIDOverride ?? rpID).utf8)))
    }

    /// RFC 9053 EC2 key: kty 2, alg -7, crv 1 (P-256), x, y; CTAP2 canonical key order.
    private func coseKey(_ key: P256.Signing.PublicKey) -> Data {
        let raw = key.rawRepresentation  // x ‖ y, 32 bytes each
        return CBOR.encode(
            .map([
                (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
                (.int(-2), .bytes(raw.prefix(32))), (.int(-3), .bytes(raw.suffix(32))),
            ]))
    }
}
