#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// The proof's shape against docs/DPOP.md, checked with swift-crypto, not with the client's own reader.
struct DPoPProofShapeTests {
    private static func parts(_ jws: String) throws -> (header: [String: Any], payload: [String: Any], signature: Data, input: String) {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let headerData = try #require(Base64URL.decode(parts[0]))
        let payloadData = try #require(Base64URL.decode(parts[1]))
        let header = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
        let payload = try #require(try JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
        let signature = try #require(Base64URL.decode(parts[2]))
        return (header, payload, signature, parts[0] + "." + parts[1])
    }

    @Test func signsAnES256ProofThatItsOwnJWKVerifies() throws {
        let key = SoftwareDPoPKey()
        let proof = DPoPProof(
            method: "get", url: try #require(DPoPProof.htu(URL(string: "https://API.example.com:443/v1/items?page=2#top"))),
            issuedAt: Date(timeIntervalSince1970: 1_800_000_000.9), accessToken: "the-token", nonce: "n-1")
        let (header, payload, signature, input) = try Self.parts(try proof.signed(by: key))
        #expect(header["typ"] as? String == "dpop+jwt")
        #expect(header["alg"] as? String == "ES256")
        let jwk = try #require(header["jwk"] as? [String: String])
        #expect(Set(jwk.keys) == ["kty", "crv", "x", "y"])  // never `d`
        #expect(jwk["kty"] == "EC" && jwk["crv"] == "P-256")
        let x = try #require(Base64URL.decode(jwk["x"] ?? ""))
        let y = try #require(Base64URL.decode(jwk["y"] ?? ""))
        let raw = x + y
        let publicKey = try P256.Signing.PublicKey(rawRepresentation: raw)
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data(input.utf8)))
        #expect(payload["htm"] as? String == "GET")
        #expect(payload["htu"] as? String == "https://api.example.com/v1/items")
        #expect(payload["iat"] as? Int == 1_800_000_000)
        #expect(payload["nonce"] as? String == "n-1")
        #expect((payload["jti"] as? String)?.count == 22)
        let ath = Base64URL.encode(Data(SHA256.hash(data: Data("the-token".utf8))))
        #expect(payload["ath"] as? String == ath)
    }

    @Test func leavesOutAthAndNonceOnATokenRequest() throws {
        let proof = DPoPProof(method: "POST", url: "https://auth.example.com/auth/v1/token", issuedAt: Date(), accessToken: nil, nonce: nil)
        let (_, payload, _, _) = try Self.parts(try proof.signed(by: SoftwareDPoPKey()))
        #expect(payload["ath"] == nil)
        #expect(payload["nonce"] == nil)
    }

    @Test func computesTheRFC7638ThumbprintOfTheContract() throws {
        let key = SoftwareDPoPKey()
        let jwk = DPoPProof.jwk(of: key)
        let canonical = #"{"crv":"P-256","kty":"EC","x":""# + jwk.x + #"","y":""# + jwk.y + #""}"#
        #expect(DPoPProof.thumbprint(of: key) == Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8)))))
        // RFC 7638 §3.1's own example is RSA; for EC the members are crv, kty, x, y in that order.
        #expect(DPoPProof.thumbprint(of: key).count == 43)
    }

    @Test func drawsANewJTIForEveryProof() {
        let jtis = Set((0..<100).map { _ in DPoPProof.newJTI() })
        #expect(jtis.count == 100)
    }

    @Test func normalisesTheHTUAsTheServerDoes() {
        #expect(DPoPProof.htu(URL(string: "HTTP://Example.COM:80")) == "http://example.com/")
        #expect(DPoPProof.htu(URL(string: "https://example.com:8443/a/b?x=1")) == "https://example.com:8443/a/b")
        #expect(DPoPProof.htu(URL(string: "/relative")) == nil)
    }

    @Test func keepsTheFileKeyInA0600FileAndReadsItBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dpop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileDPoPKeyStore(directory: directory)
        #expect(try store.existingKey() == nil)
        let made = try store.createKey()
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let read = try #require(try store.existingKey())
        #expect(read.publicKeyRawRepresentation == made.publicKeyRawRepresentation)
    }

    @Test func readsAMissingKeychainItemAsNoKeyAndALockedOneAsTransient() throws {
        let keychain = InMemoryKeychain()
        let store = KeychainDPoPKeyStore(keychain: keychain)
        #expect(try store.existingKey() == nil)
        let made = try store.createKey()
        #expect(try store.existingKey()?.publicKeyRawRepresentation == made.publicKeyRawRepresentation)
        // errSecInteractionNotAllowed (a locked device) is "not now", never "gone".
        keychain.lockBeforeFirstUnlock()
        #expect(throws: DPoPKeyError.unavailable) { try store.existingKey() }
        keychain.unlock()
        #expect(try store.existingKey() != nil)
    }
}
