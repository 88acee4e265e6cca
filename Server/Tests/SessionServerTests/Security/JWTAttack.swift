import Crypto
import Foundation
import SessionCore
@testable import SessionServer

/// One hostile access token and the answer the contract promises for it,
/// on the gateway (`AuthMiddleware`) and on GoTrue's `/auth/v1/user`.
struct JWTAttack: Sendable, CustomStringConvertible {
    /// What the attack must get.
    enum Verdict: Sendable {
        /// Gateway 401 `AUTH_REQUIRED`; GoTrue 403 `bad_jwt`.
        case authRequired
        /// Gateway 401 `SESSION_EXPIRED`; GoTrue 403 `bad_jwt` (expired).
        case expired
        /// Gateway 401 `SESSION_EXPIRED`; GoTrue 403 `session_not_found`.
        case sessionEnded
    }

    /// What an attacker holds: a victim's real session and their own.
    struct Scene: Sendable {
        let server: AuthServer
        let now: Date
        let victim: TokenResponse
        let victimSessionID: String
        let attacker: TokenResponse
        let attackerSessionID: String

        var claims: [String: Any] { TokenForge.claims(userID: victim.user!.id, sessionID: victimSessionID, now: now) }
        var nowSeconds: Int { Int(now.timeIntervalSince1970) }
        func currentKid() async throws -> String { try await server.keyRing.currentKeyID() }
    }

    let name: String
    let verdict: Verdict
    let forge: @Sendable (Scene) async throws -> String

    var description: String { name }

    /// `claims` with `changes` applied (`NSNull` removes a claim).
    static func claims(_ scene: Scene, _ changes: [String: Any]) -> [String: Any] {
        var claims = scene.claims
        for (key, value) in changes { claims[key] = value is NSNull ? nil : value }
        return claims
    }

    /// Signed by an attacker's own P-256 key, with any header.
    static func signedByAttacker(header: [String: Any], claims: [String: Any]) throws -> String {
        let key = P256.Signing.PrivateKey()
        let input = try TokenForge.encode(header) + "." + TokenForge.encode(claims)
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    /// The attacker's public key as a JWK (for `jwk` header injection).
    static func attackerJWK() -> [String: Any] {
        let raw = P256.Signing.PrivateKey().publicKey.rawRepresentation
        return [
            "kty": "EC", "crv": "P-256", "kid": "attacker", "x": Base64URL.encode(raw.prefix(32)),
            "y": Base64URL.encode(raw.suffix(32)),
        ]
    }
}
