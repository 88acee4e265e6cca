import Foundation
import SessionCore
@testable import SessionServer

extension JWTAttack {
    /// Every attack of the list, and the ones that follow from it.
    static let catalog: [JWTAttack] = [
        JWTAttack(name: "alg none", verdict: .authRequired) { try TokenForge.unsigned(claims: $0.claims) },
        JWTAttack(name: "alg NoNe with the real signature", verdict: .authRequired) { scene in
            let parts = scene.victim.accessToken.split(separator: ".").map(String.init)
            return try TokenForge.encode(["alg": "NoNe", "kid": try await scene.currentKid()]) + "." + parts[1] + "." + parts[2]
        },
        JWTAttack(name: "HS256 signed with the public key", verdict: .authRequired) {
            try await TokenForge.hs256WithPublicKey(server: $0.server, claims: $0.claims)
        },
        JWTAttack(name: "ES256 by another P-256 key with the right kid", verdict: .authRequired) { scene in
            try signedByAttacker(header: ["alg": "ES256", "kid": try await scene.currentKid()], claims: scene.claims)
        },
        JWTAttack(name: "unknown kid", verdict: .authRequired) { scene in
            try await TokenForge.signed(by: scene.server, header: ["alg": "ES256", "kid": "k-unknown"], claims: scene.claims)
        },
        JWTAttack(name: "kid path traversal", verdict: .authRequired) { scene in
            try await TokenForge.signed(
                by: scene.server, header: ["alg": "ES256", "kid": "../../../../etc/passwd"], claims: scene.claims)
        },
        JWTAttack(name: "kid SQL injection", verdict: .authRequired) { scene in
            try await TokenForge.signed(
                by: scene.server, header: ["alg": "ES256", "kid": "x' OR '1'='1' --"], claims: scene.claims)
        },
        JWTAttack(name: "kid SQL injection, attacker key", verdict: .authRequired) { scene in
            try signedByAttacker(
                header: ["alg": "ES256", "kid": "' UNION SELECT public_key FROM signing_keys --"], claims: scene.claims)
        },
        JWTAttack(name: "jku to the attacker's JWKS, attacker key", verdict: .authRequired) { scene in
            try signedByAttacker(
                header: ["alg": "ES256", "kid": "attacker", "jku": "http://127.0.0.1:1/jwks.json"], claims: scene.claims)
        },
        JWTAttack(name: "jku with the real kid, attacker key", verdict: .authRequired) { scene in
            try signedByAttacker(
                header: ["alg": "ES256", "kid": try await scene.currentKid(), "jku": "http://127.0.0.1:1/jwks.json"],
                claims: scene.claims)
        },
        JWTAttack(name: "x5u with the real kid, attacker key", verdict: .authRequired) { scene in
            try signedByAttacker(
                header: ["alg": "ES256", "kid": try await scene.currentKid(), "x5u": "http://127.0.0.1:1/cert.pem"],
                claims: scene.claims)
        },
        JWTAttack(name: "embedded jwk, attacker key", verdict: .authRequired) { scene in
            try signedByAttacker(header: ["alg": "ES256", "kid": "attacker", "jwk": attackerJWK()], claims: scene.claims)
        },
        JWTAttack(name: "tampered payload", verdict: .authRequired) {
            try TokenForge.tampered($0.victim.accessToken, sub: $0.attacker.user!.id)
        },
        JWTAttack(name: "tampered signature", verdict: .authRequired) { scene in
            var parts = scene.victim.accessToken.split(separator: ".").map(String.init)
            var signature = Base64URL.decode(parts[2]) ?? Data()
            signature[signature.startIndex + 10] ^= 0x01
            parts[2] = Base64URL.encode(signature)
            return parts.joined(separator: ".")
        },
        JWTAttack(name: "signature stripped", verdict: .authRequired) { scene in
            let parts = scene.victim.accessToken.split(separator: ".").map(String.init)
            return parts[0] + "." + parts[1] + "."
        },
        JWTAttack(name: "signature and its dot stripped", verdict: .authRequired) { scene in
            scene.victim.accessToken.split(separator: ".").prefix(2).joined(separator: ".")
        },
        JWTAttack(name: "wrong aud", verdict: .authRequired) { scene in
            try await TokenForge.signed(by: scene.server, claims: claims(scene, ["aud": "service_role"]))
        },
        JWTAttack(name: "wrong iss", verdict: .authRequired) { scene in
            try await TokenForge.signed(by: scene.server, claims: claims(scene, ["iss": "https://evil.example"]))
        },
        JWTAttack(name: "no exp", verdict: .authRequired) { scene in
            try await TokenForge.signed(by: scene.server, claims: claims(scene, ["exp": NSNull()]))
        },
        JWTAttack(name: "no sub", verdict: .authRequired) { scene in
            try await TokenForge.signed(by: scene.server, claims: claims(scene, ["sub": NSNull()]))
        },
        JWTAttack(name: "no session_id", verdict: .authRequired) { scene in
            try await TokenForge.signed(by: scene.server, claims: claims(scene, ["session_id": NSNull()]))
        },
        JWTAttack(name: "expired beyond the leeway", verdict: .expired) { scene in
            try await TokenForge.signed(
                by: scene.server,
                claims: claims(scene, ["iat": scene.nowSeconds - 3700, "exp": scene.nowSeconds - 61]))
        },
        JWTAttack(name: "nbf in the future beyond the leeway", verdict: .authRequired) { scene in
            try await TokenForge.signed(by: scene.server, claims: claims(scene, ["nbf": scene.nowSeconds + 61]))
        },
        JWTAttack(name: "iat in the future beyond the leeway", verdict: .authRequired) { scene in
            try await TokenForge.signed(by: scene.server, claims: claims(scene, ["iat": scene.nowSeconds + 61]))
        },
        JWTAttack(name: "oversized token, validly signed", verdict: .authRequired) { scene in
            try await TokenForge.signed(
                by: scene.server, claims: claims(scene, ["padding": String(repeating: "A", count: 9 * 1024)]))
        },
        JWTAttack(name: "oversized garbage", verdict: .authRequired) { _ in
            String(repeating: "eyJhbGciOiJFUzI1NiJ9.", count: 2000)
        },
        JWTAttack(name: "four segments", verdict: .authRequired) { $0.victim.accessToken + ".e30" },
        JWTAttack(name: "victim's sub with the attacker's session_id", verdict: .sessionEnded) { scene in
            try await TokenForge.signed(by: scene.server, claims: claims(scene, ["session_id": scene.attackerSessionID]))
        },
        JWTAttack(name: "unknown session_id", verdict: .sessionEnded) { scene in
            try await TokenForge.signed(by: scene.server, claims: claims(scene, ["session_id": UUID().uuidString]))
        },
    ]
}
