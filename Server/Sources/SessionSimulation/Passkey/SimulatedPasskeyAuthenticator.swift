import Crypto
import Foundation
import SessionCore

/// A platform authenticator for the simulation's passkey lives: one
/// discoverable ES256 credential (swift-crypto's P-256), user presence and
/// verification always given, attestation `none` (WebAuthn Level 3 §6.1,
/// §6.5). It answers the server's options with the JSON a browser's
/// `PublicKeyCredential.toJSON()` writes (docs/PASSKEYS.md).
struct SimulatedPasskeyAuthenticator {
    let key = P256.Signing.PrivateKey()
    let credentialID: [UInt8]
    let rpID: String
    let origin: String
    /// Synced passkeys report 0 (docs/PASSKEYS.md, "What is checked"); this one counts.
    private(set) var signCount: UInt32 = 0

    init(seed: UInt64, rpID: String, origin: String) {
        var random = SplitMix64(seed: seed)
        credentialID = (0..<4).flatMap { _ in withUnsafeBytes(of: random.next().bigEndian, Array.init) }
        self.rpID = rpID
        self.origin = origin
    }

    /// `RegistrationResponseJSON` for `challenge` (base64url, as the options carry it).
    func registration(challenge: String) -> [String: Any] {
        let x = Array(key.publicKey.rawRepresentation.prefix(32))
        let y = Array(key.publicKey.rawRepresentation.suffix(32))
        // COSE_Key (RFC 9053): kty EC2, alg ES256, crv P-256, x, y.
        let coseKey = SimulatedCBOR.map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)), (.int(-2), .bytes(x)), (.int(-3), .bytes(y)),
        ])
        // Attested credential data (§6.5.2): AAGUID (zeros), the ID's length and the ID, the key.
        let attested = [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)]
            + credentialID + coseKey.encoded
        let authenticatorData = header(flags: 0x45, count: 0) + attested  // UP, UV, AT
        let attestation = SimulatedCBOR.map([
            (.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authenticatorData)),
        ])
        return credential(response: [
            "clientDataJSON": Self.b64(clientData("webauthn.create", challenge)),
            "attestationObject": Self.b64(attestation.encoded), "transports": ["internal"],
        ])
    }

    /// `AuthenticationResponseJSON` for `challenge`, naming the owner by `userHandle` (their user id).
    mutating func assertion(challenge: String, userHandle: String) throws -> [String: Any] {
        signCount += 1
        let authenticatorData = header(flags: 0x05, count: signCount)  // UP, UV
        let clientData = clientData("webauthn.get", challenge)
        let signed = authenticatorData + Array(SHA256.hash(data: clientData))
        let signature = try key.signature(for: signed).derRepresentation
        return credential(response: [
            "clientDataJSON": Self.b64(clientData), "authenticatorData": Self.b64(authenticatorData),
            "signature": Self.b64(Array(signature)), "userHandle": Self.b64(Array(userHandle.utf8)),
        ])
    }

    private func header(flags: UInt8, count: UInt32) -> [UInt8] {
        Array(SHA256.hash(data: Array(rpID.utf8))) + [flags] + withUnsafeBytes(of: count.bigEndian, Array.init)
    }

    private func clientData(_ type: String, _ challenge: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    private func credential(response: [String: Any]) -> [String: Any] {
        let id = Self.b64(credentialID)
        return ["id": id, "rawId": id, "type": "public-key", "response": response, "clientExtensionResults": [String: Any]()]
    }

    static func b64(_ bytes: [UInt8]) -> String { Base64URL.encode(Data(bytes)) }
}
