import Crypto
import Foundation
import SessionCore

/// The relying party's checks of a registration and of an assertion
/// (WebAuthn Level 3 §7.1 and §7.2), as pure functions of what the client
/// sent and what the server expects. Storage (the challenge's single use,
/// the credential's owner and counter) is the caller's: ``PasskeyService``.
package struct WebAuthnVerifier: Sendable {
    /// The RP ID: the domain passkeys are bound to (`example.com`).
    var rpID: String
    /// The origins a ceremony may run at: web origins, and apps' origins.
    var origins: [String]
    /// The algorithms offered in `pubKeyCredParams`; a credential of another is refused.
    var algorithms: [COSEKey.Algorithm]

    // `package`, not internal: the benchmarks (item 9) time an assertion beside a raw ES256 verify.
    package init(rpID: String, origins: [String], algorithms: [COSEKey.Algorithm] = [.es256, .edDSA]) {
        self.rpID = rpID
        self.origins = origins
        self.algorithms = algorithms
    }

    /// What a verified registration creates.
    struct Registration: Sendable, Hashable {
        var credentialID: [UInt8]
        var publicKey: COSEKey
        var publicKeyBytes: [UInt8]
        var signCount: UInt32
        var backupEligible: Bool
        var backedUp: Bool
        var aaguid: [UInt8]
    }

    /// What a verified assertion reports.
    package struct Assertion: Sendable, Hashable {
        package var signCount: UInt32
        package var backedUp: Bool
    }

    /// §7.1: checks a `navigator.credentials.create()` response against the challenge the server issued.
    func verifyRegistration(
        clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8]
    ) throws(WebAuthnError) -> Registration {
        try check(ClientData(bytes: clientDataJSON), type: "webauthn.create", challenge: challenge)
        let attestation = try AttestationObject(bytes: attestationObject)
        let data = attestation.authenticatorData
        try check(data)
        // AttestationObject refuses authenticator data without one.
        guard let credential = data.attestedCredential else { throw .malformed("authenticator data: no credential") }
        guard algorithms.contains(credential.publicKey.algorithm) else {
            throw .failed("The credential's algorithm was not offered.")
        }
        switch attestation.statement {
        case .noAttestation:
            break
        case .packedSelf(let algorithm, let signature):
            // §8.2 self attestation: the credential's own key signs authData || SHA-256(clientDataJSON).
            guard algorithm == credential.publicKey.algorithm.rawValue else {
                throw .failed("The packed attestation's algorithm is not the credential's.")
            }
            let signed = attestation.authenticatorDataBytes + Array(SHA256.hash(data: clientDataJSON))
            guard credential.publicKey.isValidSignature(signature, for: signed) else {
                throw .failed("The packed self attestation's signature does not verify.")
            }
        }
        return Registration(
            credentialID: credential.credentialID, publicKey: credential.publicKey,
            publicKeyBytes: credential.publicKeyBytes, signCount: data.signCount, backupEligible: data.backupEligible,
            backedUp: data.backedUp, aaguid: credential.aaguid)
    }

    /// §7.2: checks a `navigator.credentials.get()` response with the stored key.
    ///
    /// - Parameters:
    ///   - storedSignCount: the counter last seen; a nonzero counter must grow (§6.1.1).
    ///   - storedBackupEligible: BE never changes for a credential (§7.2 step 21).
    package func verifyAssertion(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], challenge: [UInt8],
        publicKey: COSEKey, storedSignCount: UInt32, storedBackupEligible: Bool
    ) throws(WebAuthnError) -> Assertion {
        try check(ClientData(bytes: clientDataJSON), type: "webauthn.get", challenge: challenge)
        let data = try AuthenticatorData(bytes: authenticatorData)
        try check(data)
        guard data.backupEligible == storedBackupEligible else {
            throw .failed("The backup-eligible flag changed since registration.")
        }
        let signed = authenticatorData + Array(SHA256.hash(data: clientDataJSON))
        guard publicKey.isValidSignature(signature, for: signed) else { throw .failed("The signature does not verify.") }
        // A synced passkey reports 0 every time (§6.1.1: it has no counter); any other counter must
        // move forward, or the key may have been cloned.
        if data.signCount != 0, data.signCount <= storedSignCount {
            throw .failed("The signature counter went back (\(data.signCount) after \(storedSignCount)): the authenticator may be cloned.")
        }
        // A zero does not lower what is stored: a later nonzero counter is still checked against it.
        return Assertion(signCount: max(data.signCount, storedSignCount), backedUp: data.backedUp)
    }

    private func check(_ clientData: ClientData, type: String, challenge: [UInt8]) throws(WebAuthnError) {
        guard clientData.type == type else { throw .failed("The client data's type is not \(type).") }
        guard let sent = Base64URL.decode(clientData.challenge), Array(sent) == challenge else {
            throw .failed("The client data's challenge is not the one issued.")
        }
        guard origins.contains(clientData.origin) else {
            throw .failed("The origin '\(clientData.origin.prefix(80))' is not one of this server's WebAuthn origins.")
        }
        guard clientData.crossOrigin != true else { throw .failed("A cross-origin ceremony is not accepted.") }
    }

    private func check(_ data: AuthenticatorData) throws(WebAuthnError) {
        guard data.rpIDHash == Array(SHA256.hash(data: Array(rpID.utf8))) else {
            throw .failed("The RP ID hash is not this server's RP ID.")
        }
        guard data.userPresent else { throw .failed("The authenticator did not report user presence (UP).") }
        guard data.userVerified else { throw .failed("The authenticator did not verify the user (UV is required).") }
        // §6.3.3: a credential that may not be backed up cannot be backed up.
        guard data.backupEligible || !data.backedUp else { throw .malformed("authenticator data: BS set without BE") }
    }
}
