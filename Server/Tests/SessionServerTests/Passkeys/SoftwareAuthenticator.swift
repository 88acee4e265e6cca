import Crypto
import Foundation
import SessionCore
@testable import SessionServer

/// A passkey authenticator in software, for the tests: it makes a key,
/// answers `create()` with an attestation object and `get()` with a signed
/// assertion, in the WebAuthn Level 3 JSON forms a browser sends. Every knob
/// an attack needs is a property (the origin, the RP ID it hashes, the flags,
/// the counter), so each test changes one thing and expects one refusal.
struct SoftwareAuthenticator {
    enum Key {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    var key: Key
    var credentialID: [UInt8]
    var rpID: String
    var origin: String
    /// UP | UV by default; BE (0x08) and BS (0x10) for a synced passkey.
    var flags: UInt8 = 0x05
    var signCount: UInt32 = 0
    /// `packed` signs the registration with the credential's own key (self attestation).
    var format = "none"
    /// The COSE algorithm the key claims (a test may lie).
    var claimedAlgorithm: Int?
    var aaguid = [UInt8](repeating: 0xAA, count: 16)

    init(algorithm: COSEKey.Algorithm = .es256, rpID: String = "example.com", origin: String = "https://example.com") {
        switch algorithm {
        case .es256: key = .p256(P256.Signing.PrivateKey())
        case .edDSA: key = .ed25519(Curve25519.Signing.PrivateKey())
        }
        credentialID = (0..<16).map { _ in UInt8.random(in: 0...255) }
        self.rpID = rpID
        self.origin = origin
    }

    var coseKey: [UInt8] {
        switch key {
        case .p256(let k):
            let raw = Array(k.publicKey.rawRepresentation)
            return TestCBOR.map([
                (.int(1), .int(2)), (.int(3), .int(claimedAlgorithm ?? -7)), (.int(-1), .int(1)),
                (.int(-2), .bytes(Array(raw[0..<32]))), (.int(-3), .bytes(Array(raw[32..<64]))),
            ]).encoded
        case .ed25519(let k):
            return TestCBOR.map([
                (.int(1), .int(1)), (.int(3), .int(claimedAlgorithm ?? -8)), (.int(-1), .int(6)),
                (.int(-2), .bytes(Array(k.publicKey.rawRepresentation))),
            ]).encoded
        }
    }

    func sign(_ data: [UInt8]) -> [UInt8] {
        do {
            switch key {
            case .p256(let k): return Array(try k.signature(for: data).derRepresentation)
            case .ed25519(let k): return Array(try k.signature(for: data))
            }
        } catch {
            preconditionFailure("software signing failed: \(error)")
        }
    }

    func clientData(type: String, challenge: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    func authenticatorData(attested: Bool) -> [UInt8] {
        var data = Array(SHA256.hash(data: Array(rpID.utf8)))
        data.append(flags | (attested ? 0x40 : 0))
        data += (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> ($0 * 8)) }
        if attested {
            data += aaguid + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID + coseKey
        }
        return data
    }

    /// The parts of a `create()` answer.
    func registrationParts(challenge: String) -> (clientData: [UInt8], attestationObject: [UInt8]) {
        let clientData = clientData(type: "webauthn.create", challenge: challenge)
        let authData = authenticatorData(attested: true)
        var statement: [(TestCBOR, TestCBOR)] = []
        if format == "packed" {
            let signature = sign(authData + Array(SHA256.hash(data: clientData)))
            statement = [(.text("alg"), .int(claimedAlgorithm ?? algorithm)), (.text("sig"), .bytes(signature))]
        }
        let object = TestCBOR.map([
            (.text("fmt"), .text(format)), (.text("attStmt"), .map(statement)), (.text("authData"), .bytes(authData)),
        ])
        return (clientData, object.encoded)
    }

    /// The parts of a `get()` answer.
    func assertionParts(challenge: String) -> (clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        let clientData = clientData(type: "webauthn.get", challenge: challenge)
        let authData = authenticatorData(attested: false)
        return (clientData, authData, sign(authData + Array(SHA256.hash(data: clientData))))
    }

    var algorithm: Int {
        switch key {
        case .p256: -7
        case .ed25519: -8
        }
    }

    static func b64(_ bytes: [UInt8]) -> String { Base64URL.encode(Data(bytes)) }

    /// RegistrationResponseJSON (WebAuthn Level 3 §5.1).
    func registrationJSON(challenge: String, clientData: [UInt8]? = nil) -> String {
        let parts = registrationParts(challenge: challenge)
        let id = Self.b64(credentialID)
        return #"{"id":"\#(id)","rawId":"\#(id)","type":"public-key","response":{"clientDataJSON":"\#(Self.b64(clientData ?? parts.clientData))","attestationObject":"\#(Self.b64(parts.attestationObject))","transports":["internal","hybrid"]},"clientExtensionResults":{}}"#
    }

    /// AuthenticationResponseJSON (WebAuthn Level 3 §5.1), for the user whose handle is `userHandle`.
    func assertionJSON(challenge: String, userHandle: String, clientData: [UInt8]? = nil) -> String {
        let parts = assertionParts(challenge: challenge)
        let id = Self.b64(credentialID)
        let handle = Self.b64(Array(userHandle.utf8))
        return #"{"id":"\#(id)","rawId":"\#(id)","type":"public-key","response":{"clientDataJSON":"\#(Self.b64(clientData ?? parts.clientData))","authenticatorData":"\#(Self.b64(parts.authenticatorData))","signature":"\#(Self.b64(parts.signature))","userHandle":"\#(handle)"},"clientExtensionResults":{}}"#
    }
}
