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
    /// - Parameter encodedHeader: ``encodedHeader(of:)`` for `key`, when the caller keeps it
    ///   (``DPoPProofs`` does, with the key): the header is the same for every proof of a key.
    /// - Throws: ``DPoPKeyError/unavailable`` when the key cannot sign right now.
    func signed(by key: any DPoPSigningKey, encodedHeader: String? = nil) throws(DPoPKeyError) -> String {
        let header: String
        if let encodedHeader { header = encodedHeader } else { header = try Self.encodedHeader(of: key) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let payload: Data
        do {
            payload = try encoder.encode(
                Payload(
                    jti: jti, htm: method.uppercased(), htu: url, iat: Int(issuedAt.timeIntervalSince1970.rounded(.down)),
                    ath: accessToken.map(Self.ath), nonce: nonce))
        } catch {
            throw DPoPKeyError.unavailable.with(detail: "the proof could not be encoded: \(error)")
        }
        let input = header + "." + Base64URL.encode(payload)
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    /// The protected header of every proof `key` signs, base64url: `typ`, `alg` and the public JWK.
    ///
    /// - Throws: ``DPoPKeyError/unavailable`` when it cannot be encoded.
    static func encodedHeader(of key: any DPoPSigningKey) throws(DPoPKeyError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do {
            return Base64URL.encode(try encoder.encode(Header(jwk: jwk(of: key))))
        } catch {
            throw DPoPKeyError.unavailable.with(detail: "the proof could not be encoded: \(error)")
        }
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
        target(of: url)?.htu
    }

    /// ``htu(_:)`` and ``origin(of:)`` of `url` from one parse: a proof needs
    /// both (the origin keys the server's nonce), and `URLComponents` is the
    /// costly part of each (docs/BENCHMARKS.md, "The client's cost of a DPoP proof").
    static func target(of url: URL?) -> (htu: String, origin: String)? {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let origin = origin(of: components)
        else { return nil }
        let path = components.percentEncodedPath
        return (origin + (path.isEmpty ? "/" : path), origin)
    }

    /// `scheme://host[:port]`, lowercased, the default port dropped (as the server normalises it).
    static func origin(of url: URL?) -> String? {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        return origin(of: components)
    }

    private static func origin(of components: URLComponents) -> String? {
        guard let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        var text = scheme + "://" + (host.contains(":") ? "[\(host)]" : host)
        if let port = components.port, !(scheme == "https" && port == 443), !(scheme == "http" && port == 80) {
            text += ":\(port)"
        }
        return text
    }

    /// 16 bytes from the system CSPRNG, base64url.
    static func newJTI() -> String {
        // Two draws of 8 bytes, not sixteen of one: each draw is a `getrandom` call on Linux.
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next(), generator.next()] as [UInt64]
        var bytes = Data(capacity: 16)
        for word in words {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Base64URL.encode(bytes)
    }
}
