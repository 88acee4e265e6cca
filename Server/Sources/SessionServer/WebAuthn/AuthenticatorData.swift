/// The authenticator data (WebAuthn Level 3 §6.1): the RP ID hash, the
/// flags, the signature counter and, at registration, the attested
/// credential (§6.5.1). Parsed from untrusted bytes; every length is checked.
struct AuthenticatorData: Sendable, Hashable {
    /// The credential a registration creates.
    struct AttestedCredential: Sendable, Hashable {
        var aaguid: [UInt8]
        var credentialID: [UInt8]
        var publicKey: COSEKey
        /// The key's COSE bytes as sent, which is what the server stores.
        var publicKeyBytes: [UInt8]
    }

    var rpIDHash: [UInt8]
    var flags: UInt8
    var signCount: UInt32
    var attestedCredential: AttestedCredential?

    /// UP: a person touched or otherwise was present.
    var userPresent: Bool { flags & 0x01 != 0 }
    /// UV: the authenticator verified the person (biometry, PIN).
    var userVerified: Bool { flags & 0x04 != 0 }
    /// BE: the credential may be synced to other devices (a passkey in iCloud Keychain, Google Password Manager).
    var backupEligible: Bool { flags & 0x08 != 0 }
    /// BS: the credential is backed up now.
    var backedUp: Bool { flags & 0x10 != 0 }

    /// The longest credential ID WebAuthn allows (§5.1: 1023 bytes).
    static let maximumCredentialIDLength = 1023

    init(bytes: [UInt8]) throws(WebAuthnError) {
        // 32 (RP ID hash) + 1 (flags) + 4 (counter).
        guard bytes.count >= 37 else { throw .malformed("authenticator data: shorter than 37 bytes") }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        let hasAttestedCredential = flags & 0x40 != 0
        let hasExtensions = flags & 0x80 != 0
        if hasAttestedCredential {
            // 16 (AAGUID) + 2 (credential ID length).
            guard bytes.count - offset >= 18 else { throw .malformed("authenticator data: attested credential cut short") }
            let aaguid = Array(bytes[offset..<offset + 16])
            let idLength = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard idLength > 0, idLength <= Self.maximumCredentialIDLength else {
                throw .malformed("authenticator data: credential ID length \(idLength)")
            }
            guard bytes.count - offset >= idLength else { throw .malformed("authenticator data: credential ID cut short") }
            let credentialID = Array(bytes[offset..<offset + idLength])
            offset += idLength
            let rest = Array(bytes[offset...])
            let (keyValue, consumed): (CBORValue, Int)
            do { (keyValue, consumed) = try CBORDecoder.decodePrefix(rest) } catch {
                throw .cbor("credential public key", error)
            }
            attestedCredential = AttestedCredential(
                aaguid: aaguid, credentialID: credentialID, publicKey: try COSEKey(cbor: keyValue),
                publicKeyBytes: Array(rest[0..<consumed]))
            offset += consumed
        } else {
            attestedCredential = nil
        }
        if hasExtensions {
            // Read only to check its shape: the server asks for no extension.
            let rest = Array(bytes[offset...])
            let (value, consumed): (CBORValue, Int)
            do { (value, consumed) = try CBORDecoder.decodePrefix(rest) } catch { throw .cbor("extensions", error) }
            guard value.mapEntries != nil else { throw .malformed("authenticator data: extensions are not a map") }
            offset += consumed
        }
        guard offset == bytes.count else {
            throw .malformed("authenticator data: \(bytes.count - offset) bytes after its last part")
        }
    }
}
