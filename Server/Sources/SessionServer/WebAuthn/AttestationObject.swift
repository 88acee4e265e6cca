/// The attestation object a registration returns (WebAuthn Level 3 §6.5):
/// a CBOR map of `fmt`, `attStmt` and `authData`.
struct AttestationObject: Sendable, Hashable {
    /// The attestation statement formats this server accepts (no attestation root store):
    /// `none`, and `packed` self attestation (signed by the credential's own key, no `x5c`).
    enum Statement: Sendable, Hashable {
        case noAttestation
        case packedSelf(algorithm: Int, signature: [UInt8])
    }

    var statement: Statement
    var authenticatorData: AuthenticatorData
    /// The authenticator data's bytes, which a packed signature covers.
    var authenticatorDataBytes: [UInt8]

    init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBORDecoder.decode(bytes) } catch { throw .cbor("attestation object", error) }
        guard value.mapEntries != nil else { throw .malformed("attestation object: not a map") }
        guard let format = value[text: "fmt"]?.textString else { throw .malformed("attestation object: no fmt") }
        guard let authData = value[text: "authData"]?.byteString else { throw .malformed("attestation object: no authData") }
        guard let attStmt = value[text: "attStmt"], let entries = attStmt.mapEntries else {
            throw .malformed("attestation object: no attStmt map")
        }
        switch format {
        case "none":
            guard entries.isEmpty else { throw .malformed("attestation object: a none statement must be empty") }
            statement = .noAttestation
        case "packed":
            guard attStmt[text: "x5c"] == nil else {
                throw .failed("Packed attestation with a certificate chain is not accepted: ask for attestation \"none\".")
            }
            guard let algorithm = attStmt[text: "alg"]?.int, let signature = attStmt[text: "sig"]?.byteString else {
                throw .malformed("attestation object: a packed statement needs alg and sig")
            }
            statement = .packedSelf(algorithm: algorithm, signature: signature)
        default:
            throw .failed("Attestation format '\(format.prefix(32))' is not accepted: ask for attestation \"none\".")
        }
        authenticatorDataBytes = authData
        authenticatorData = try AuthenticatorData(bytes: authData)
        guard authenticatorData.attestedCredential != nil else {
            throw .malformed("attestation object: authenticator data without an attested credential")
        }
    }
}
