import Crypto
import Testing

@testable import SessionServer

/// COSE keys (RFC 9052/9053), authenticator data and attestation objects
/// (WebAuthn Level 3 §6.1, §6.5) from a software authenticator's bytes.
struct WebAuthnParsingTests {
    @Test(arguments: [COSEKey.Algorithm.es256, .edDSA])
    func readsTheCredentialAnAuthenticatorCreates(algorithm: COSEKey.Algorithm) throws {
        var authenticator = SoftwareAuthenticator(algorithm: algorithm)
        authenticator.flags = 0x1d  // UP, UV, BE, BS
        authenticator.signCount = 7
        let data = try AuthenticatorData(bytes: authenticator.authenticatorData(attested: true))
        #expect(data.rpIDHash == Array(SHA256.hash(data: Array("example.com".utf8))))
        #expect(data.userPresent && data.userVerified && data.backupEligible && data.backedUp)
        #expect(data.signCount == 7)
        let credential = try #require(data.attestedCredential)
        #expect(credential.credentialID == authenticator.credentialID)
        #expect(credential.publicKey.algorithm == algorithm)
        #expect(credential.publicKeyBytes == authenticator.coseKey)
        #expect(credential.aaguid == authenticator.aaguid)
    }

    @Test func refusesAnAlgorithmItDoesNotVerify() {
        var authenticator = SoftwareAuthenticator()
        authenticator.claimedAlgorithm = -257  // RS256
        #expect(throws: WebAuthnError.self) { try COSEKey(bytes: authenticator.coseKey) }
    }

    @Test func refusesAKeyOfTheWrongShape() {
        let short = TestCBOR.map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)), (.int(-2), .bytes([1])), (.int(-3), .bytes([2])),
        ]).encoded
        #expect(throws: WebAuthnError.self) { try COSEKey(bytes: short) }
        let wrongCurve = TestCBOR.map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(2)),
            (.int(-2), .bytes(Array(repeating: 1, count: 32))), (.int(-3), .bytes(Array(repeating: 2, count: 32))),
        ]).encoded
        #expect(throws: WebAuthnError.self) { try COSEKey(bytes: wrongCurve) }
    }

    @Test func refusesAuthenticatorDataCutShortOrWithTrailingBytes() {
        let authenticator = SoftwareAuthenticator()
        let data = authenticator.authenticatorData(attested: true)
        for cut in [0, 36, 40, 60, data.count - 1] {
            #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes: Array(data[0..<cut])) }
        }
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes: data + [0]) }
        // A credential ID length past the bytes there are.
        var long = data
        long[53] = 0xff
        long[54] = 0xff
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes: long) }
    }

    @Test func acceptsNoneAndPackedSelfAttestationOnly() throws {
        var authenticator = SoftwareAuthenticator()
        let none = try AttestationObject(bytes: authenticator.registrationParts(challenge: "AA").attestationObject)
        #expect(none.statement == .noAttestation)
        authenticator.format = "packed"
        let packed = try AttestationObject(bytes: authenticator.registrationParts(challenge: "AA").attestationObject)
        guard case .packedSelf(let algorithm, _) = packed.statement else { Issue.record("not packed"); return }
        #expect(algorithm == -7)
        authenticator.format = "fido-u2f"
        #expect(throws: WebAuthnError.self) {
            try AttestationObject(bytes: authenticator.registrationParts(challenge: "AA").attestationObject)
        }
    }

    @Test func refusesClientDataThatIsNotItsJSON() {
        #expect(throws: WebAuthnError.self) { try ClientData(bytes: Array("[]".utf8)) }
        #expect(throws: WebAuthnError.self) { try ClientData(bytes: Array(#"{"type":"webauthn.get"}"#.utf8)) }
        #expect(throws: WebAuthnError.self) { try ClientData(bytes: [UInt8](repeating: 0x20, count: 5000)) }
    }
}
