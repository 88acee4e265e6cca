#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation
import SessionCore

/// One DPoP proof (RFC 9449 §4.2): an ES256 compact JWS whose header carries
/// the public key, as docs/DPOP.md ("The proof") fixes the wire.
struct DPoPProof: Sendable {
    /// `htm`: the request method, uppercase.
    var method: String
    /// `htu`: `scheme://host[:port]/path`, no query, no fragment.
    var url: String
    /// `iat`: the estimated SERVER time the proof is made at, never the device clock's.
    var issuedAt: Date
    /// `ath`: the access token the request carries (resource requests only).
    var accessToken: String?
    /// `nonce`: the latest `DPoP-Nonce` the server handed out, when it did.
    var nonce: String?
    /// `jti`: 16 random bytes, base64url (22 characters).
    var jti: String = DPoPProof.newJTI()

    private struct Header: Encodable {
        let typ = "dpop+jwt"
        let alg = "ES256"
        let jwk: JWK
    }

    struct JWK: Codable, Hashable {
        var kty = "EC"
        var crv = "P-256"
        var x: String
        var y: String
    }

    private struct Payload: Encodable {
        let jti: String
        let htm: String
        let htu: String
        let iat: Int
        let ath: String?
        let nonce: String?
    }

    /// The compact JWS, signed by `key`.
    ///
    /// - Throws: ``DPoPKeyError/unavailable`` when the key cannot sign right now.
    func signed(by key: any DPoPSigningKey) throws(DPoPKeyError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let header: Data
        let payload: Data
        do {
            header = try encoder.encode(Header(jwk: Self.jwk(of: key)))
            payload = try encoder.encode(
                Payload(
                    jti: jti, htm: method.uppercased(), htu: url, iat: Int(issuedAt.timeIntervalSince1970.rounded(.down)),
                    ath: accessToken.map(Self.ath), nonce: nonce))
        } catch {
            throw DPoPKeyError.unavailable.with(detail: "the proof could not be encoded: \(error)")
        }
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    /// The public JWK of `key` (no `d`: the private key never leaves the store).
    static func jwk(of key: any DPoPSigningKey) -> JWK {
        let raw = key.publicKeyRawRepresentation
        return JWK(x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(from: raw.startIndex + 32)))
    }

    /// RFC 7638 thumbprint (`jkt`): SHA-256 of `{"crv","kty","x","y"}` in that order, no whitespace.
    static func thumbprint(of key: any DPoPSigningKey) -> String {
        let jwk = jwk(of: key)
        let canonical = #"{"crv":"P-256","kty":"EC","x":""# + jwk.x + #"","y":""# + jwk.y + #""}"#
        return Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8))))
    }

    /// `ath`: base64url SHA-256 of the ASCII access token.
    static func ath(_ accessToken: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8))))
    }

    /// `htu` for `url`: ``origin(of:)`` and the path as sent ("/" when empty),
    /// no query, no fragment (RFC 9449 §4.3).
    static func htu(_ url: URL?) -> String? {
        guard let url, let origin = origin(of: url),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return nil }
        let path = components.percentEncodedPath
        return origin + (path.isEmpty ? "/" : path)
    }

    /// `scheme://host[:port]`, lowercased, the default port dropped (as the server normalises it).
    static func origin(of url: URL?) -> String? {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        var text = scheme + "://" + (host.contains(":") ? "[\(host)]" : host)
        if let port = components.port, !(scheme == "https" && port == 443), !(scheme == "http" && port == 80) {
            text += ":\(port)"
        }
        return text
    }

    /// 16 bytes from the system CSPRNG, base64url.
    static func newJTI() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode(Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }
}
