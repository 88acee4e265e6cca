import Crypto
import Foundation
import Testing

@testable import SessionServer

/// The relying party's checks (WebAuthn Level 3 §7.1, §7.2) against a
/// software authenticator: each attack changes one thing and is refused.
struct WebAuthnVerifierTests {
    let verifier = WebAuthnVerifier(rpID: "example.com", origins: ["https://example.com"])
    let challenge = (0..<32).map { _ in UInt8.random(in: 0...255) }
    var challengeText: String { SoftwareAuthenticator.b64(challenge) }

    func register(_ authenticator: SoftwareAuthenticator, clientData: [UInt8]? = nil) throws -> WebAuthnVerifier.Registration {
        let parts = authenticator.registrationParts(challenge: challengeText)
        return try verifier.verifyRegistration(
            clientDataJSON: clientData ?? parts.clientData, attestationObject: parts.attestationObject, challenge: challenge)
    }

    func assert(
        _ authenticator: SoftwareAuthenticator, key: COSEKey, storedCount: UInt32 = 0, storedBE: Bool = false
    ) throws -> WebAuthnVerifier.Assertion {
        let parts = authenticator.assertionParts(challenge: challengeText)
        return try verifier.verifyAssertion(
            clientDataJSON: parts.clientData, authenticatorData: parts.authenticatorData, signature: parts.signature,
            challenge: challenge, publicKey: key, storedSignCount: storedCount, storedBackupEligible: storedBE)
    }

    @Test(arguments: [COSEKey.Algorithm.es256, .edDSA], ["none", "packed"])
    func registersAndSignsInWithBothAlgorithmsAndFormats(algorithm: COSEKey.Algorithm, format: String) throws {
        var authenticator = SoftwareAuthenticator(algorithm: algorithm)
        authenticator.format = format
        let registration = try register(authenticator)
        #expect(registration.credentialID == authenticator.credentialID)
        #expect(registration.publicKey.algorithm == algorithm)
        authenticator.signCount = 1
        #expect(try assert(authenticator, key: registration.publicKey).signCount == 1)
    }

    @Test func storesTheBackupFlags() throws {
        var authenticator = SoftwareAuthenticator()
        authenticator.flags = 0x0d  // UP, UV, BE; not yet backed up
        let registration = try register(authenticator)
        #expect(registration.backupEligible && !registration.backedUp)
        authenticator.flags = 0x1d
        #expect(try assert(authenticator, key: registration.publicKey, storedBE: true).backedUp)
        // BE is fixed for a credential's life (§7.2 step 21).
        authenticator.flags = 0x05
        #expect(throws: WebAuthnError.self) { try assert(authenticator, key: registration.publicKey, storedBE: true) }
    }

    @Test func refusesAWrongOrigin() {
        var authenticator = SoftwareAuthenticator()
        authenticator.origin = "https://example.com.evil.test"
        #expect(throws: WebAuthnError.self) { try register(authenticator) }
    }

    @Test func refusesAWrongRPIDHash() {
        let authenticator = SoftwareAuthenticator(rpID: "evil.test")
        #expect(throws: WebAuthnError.self) { try register(authenticator) }
    }

    @Test func refusesAnotherChallenge() {
        let authenticator = SoftwareAuthenticator()
        let other = authenticator.clientData(type: "webauthn.create", challenge: SoftwareAuthenticator.b64([1, 2, 3]))
        #expect(throws: WebAuthnError.self) { try register(authenticator, clientData: other) }
    }

    @Test func refusesTheWrongCeremonyType() throws {
        let authenticator = SoftwareAuthenticator()
        let getType = authenticator.clientData(type: "webauthn.get", challenge: challengeText)
        #expect(throws: WebAuthnError.self) { try register(authenticator, clientData: getType) }
    }

    @Test(arguments: [UInt8(0x04), 0x01, 0x00, 0x15])  // UV alone, UP alone, neither, BS without BE
    func refusesMissingPresenceOrVerification(flags: UInt8) {
        var authenticator = SoftwareAuthenticator()
        authenticator.flags = flags
        #expect(throws: WebAuthnError.self) { try register(authenticator) }
    }

    @Test func refusesAnAlgorithmNotOffered() {
        let edOnly = WebAuthnVerifier(rpID: "example.com", origins: ["https://example.com"], algorithms: [.edDSA])
        let parts = SoftwareAuthenticator().registrationParts(challenge: challengeText)
        #expect(throws: WebAuthnError.self) {
            try edOnly.verifyRegistration(
                clientDataJSON: parts.clientData, attestationObject: parts.attestationObject, challenge: challenge)
        }
    }

    @Test func refusesAPackedSignatureByAnotherKey() {
        let authenticator = SoftwareAuthenticator()
        let impostor = SoftwareAuthenticator()
        let clientData = authenticator.clientData(type: "webauthn.create", challenge: challengeText)
        let authData = authenticator.authenticatorData(attested: true)
        // The credential's key is the authenticator's; the "self" signature is the impostor's.
        let signature = impostor.sign(authData + Array(SHA256.hash(data: clientData)))
        let object = TestCBOR.map([
            (.text("fmt"), .text("packed")), (.text("attStmt"), .map([(.text("alg"), .int(-7)), (.text("sig"), .bytes(signature))])),
            (.text("authData"), .bytes(authData)),
        ]).encoded
        #expect(throws: WebAuthnError.self) {
            try verifier.verifyRegistration(clientDataJSON: clientData, attestationObject: object, challenge: challenge)
        }
    }

    @Test func refusesASignatureByAnotherKeyOrOverOtherData() throws {
        var authenticator = SoftwareAuthenticator()
        let registration = try register(authenticator)
        let other = SoftwareAuthenticator()
        authenticator.signCount = 1
        #expect(throws: WebAuthnError.self) { try assert(other, key: registration.publicKey) }
        // A tampered client data JSON: the signature covers the original.
        let parts = authenticator.assertionParts(challenge: challengeText)
        let tampered = Array(String(decoding: parts.clientData, as: UTF8.self)
            .replacingOccurrences(of: "\"crossOrigin\":false", with: "\"crossOrigin\":false ").utf8)
        #expect(throws: WebAuthnError.self) {
            try verifier.verifyAssertion(
                clientDataJSON: tampered, authenticatorData: parts.authenticatorData, signature: parts.signature,
                challenge: challenge, publicKey: registration.publicKey, storedSignCount: 0, storedBackupEligible: false)
        }
    }

    @Test func refusesACounterThatGoesBackUnlessItIsZero() throws {
        var authenticator = SoftwareAuthenticator()
        let key = try register(authenticator).publicKey
        authenticator.signCount = 5
        #expect(try assert(authenticator, key: key, storedCount: 4).signCount == 5)
        #expect(throws: WebAuthnError.self) { try assert(authenticator, key: key, storedCount: 5) }
        authenticator.signCount = 3
        #expect(throws: WebAuthnError.self) { try assert(authenticator, key: key, storedCount: 5) }
        // A synced passkey reports 0: accepted, and the stored counter is kept.
        authenticator.signCount = 0
        #expect(try assert(authenticator, key: key, storedCount: 5).signCount == 5)
    }
}
