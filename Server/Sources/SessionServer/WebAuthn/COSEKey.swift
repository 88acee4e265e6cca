/// A credential public key in its COSE_Key form (RFC 9052 §7, RFC 9053 §7),
/// as the authenticator data carries it: only the two kinds this server
/// verifies, ES256 on P-256 (EC2) and EdDSA on Ed25519 (OKP).
///
/// Parsing is separate from verification (``COSEKey/isValidSignature(_:for:)``
/// in COSEKey+Verification.swift), so the parser builds with Foundation alone and is fuzzed.
package struct COSEKey: Sendable, Hashable {
    /// COSE algorithm identifiers (IANA "COSE Algorithms").
    package enum Algorithm: Int, Sendable, Hashable, CaseIterable {
        case es256 = -7
        case edDSA = -8
    }

    let algorithm: Algorithm
    /// ES256: the point's `x` and `y`, 32 bytes each (64); EdDSA: the 32-byte Ed25519 key.
    let publicKey: [UInt8]

    package init(algorithm: Algorithm, publicKey: [UInt8]) {
        self.algorithm = algorithm
        self.publicKey = publicKey
    }

    // COSE labels (RFC 9052 §7.1, RFC 9053 §7.1-7.2).
    private static let kty = 1, alg = 3, crv = -1, x = -2, y = -3
    private static let ktyOKP = 1, ktyEC2 = 2, crvP256 = 1, crvEd25519 = 6

    /// Reads a COSE_Key from its CBOR bytes.
    init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBORDecoder.decode(bytes) } catch { throw .cbor("credential public key", error) }
        try self.init(cbor: value)
    }

    /// Reads a COSE_Key from a decoded CBOR map.
    init(cbor value: CBORValue) throws(WebAuthnError) {
        guard value.mapEntries != nil else { throw .malformed("credential public key: not a COSE_Key map") }
        guard let algValue = value[int: Self.alg]?.int else {
            throw .malformed("credential public key: no alg")
        }
        guard let algorithm = Algorithm(rawValue: algValue) else {
            throw .failed("The credential's algorithm (COSE \(algValue)) is not accepted: use ES256 (-7) or EdDSA (-8).")
        }
        let kty = value[int: Self.kty]?.int
        let crv = value[int: Self.crv]?.int
        guard let x = value[int: Self.x]?.byteString, x.count == 32 else {
            throw .malformed("credential public key: x must be 32 bytes")
        }
        switch algorithm {
        case .es256:
            guard kty == Self.ktyEC2, crv == Self.crvP256 else {
                throw .malformed("credential public key: ES256 needs kty EC2 and crv P-256")
            }
            // A compressed point (y as a boolean) is refused: WebAuthn authenticators send both coordinates.
            guard let y = value[int: Self.y]?.byteString, y.count == 32 else {
                throw .malformed("credential public key: y must be 32 bytes")
            }
            self.init(algorithm: .es256, publicKey: x + y)
        case .edDSA:
            guard kty == Self.ktyOKP, crv == Self.crvEd25519 else {
                throw .malformed("credential public key: EdDSA needs kty OKP and crv Ed25519")
            }
            self.init(algorithm: .edDSA, publicKey: x)
        }
    }
}
