import HTTPTypes
import Crypto
import Foundation
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Builds hostile and hand-made tokens for the bad-input tests.
enum TokenForge {
    static func encode(_ object: [String: Any]) throws -> String {
        Base64URL.encode(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// Claims like the server's, for `userID`'s `sessionID`, at `now`.
    static func claims(userID: String, sessionID: String, now: Date) -> [String: Any] {
        let iat = Int(now.timeIntervalSince1970)
        return [
            "sub": userID, "aud": "authenticated", "role": "authenticated", "iat": iat, "exp": iat + 3600,
            "iss": "sessionkit", "session_id": sessionID, "email": "ada@example.com",
        ]
    }

    /// A token signed with the server's current key, with any header and claims.
    static func signed(by server: AuthServer, header: [String: Any]? = nil, claims: [String: Any]) async throws -> String {
        let key = try await server.keyRing.currentKey()
        let input = try encode(header ?? ["alg": "ES256", "kid": key.kid, "typ": "JWT"]) + "." + encode(claims)
        return input + "." + (try key.sign(input))
    }

    /// `alg: none` with an empty signature.
    static func unsigned(claims: [String: Any]) throws -> String {
        try encode(["alg": "none", "typ": "JWT"]) + "." + encode(claims) + "."
    }

    /// HS256 with the server's public key (as JWK JSON) as the HMAC secret: the classic confusion attack.
    static func hs256WithPublicKey(server: AuthServer, claims: [String: Any]) async throws -> String {
        let jwk = try await server.keyRing.jwks().keys[0]
        let secret = try JSONEncoder().encode(jwk)
        let input = try encode(["alg": "HS256", "kid": jwk.kid ?? "", "typ": "JWT"]) + "." + encode(claims)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: secret))
        return input + "." + Base64URL.encode(Data(mac))
    }

    /// A validly signed token with one payload field changed afterwards.
    static func tampered(_ token: String, sub: String) throws -> String {
        let parts = token.split(separator: ".").map(String.init)
        let data = try #require(Base64URL.decode(parts[1]))
        var payload = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        payload["sub"] = sub
        return parts[0] + "." + (try encode(payload)) + "." + parts[2]
    }
}

