import Foundation
import SessionCore

/// Signs ES256 access tokens with the key ring's current key.
struct AccessTokenIssuer: Sendable {
    let keyRing: KeyRing
    let issuer: String
    let audience: String
    let lifetime: TimeInterval

    /// A signed token for `userID`'s `session`, and its expiry.
    func issue(userID: String, email: String?, session: SessionRecord, now: Date) async throws -> (token: String, expiresAt: Date) {
        let key = try await keyRing.currentKey()
        let issuedAt = Int(now.timeIntervalSince1970)
        let expiresAt = issuedAt + Int(lifetime)
        let claims = AccessTokenClaims(
            sub: userID, aud: audience, role: "authenticated", exp: expiresAt, iat: issuedAt, iss: issuer,
            // GoTrue writes an empty email claim for users without one; clients expect the key.
            sessionID: session.id, email: email ?? "",
            amr: [
                AuthenticationMethodReference(
                    method: session.authMethod ?? "password", timestamp: Int(session.createdAt.timeIntervalSince1970))
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = try encoder.encode(AccessTokenHeader(alg: "ES256", kid: key.kid, typ: "JWT"))
        let payload = try encoder.encode(claims)
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = try key.sign(signingInput)
        return (signingInput + "." + signature, Date(timeIntervalSince1970: TimeInterval(expiresAt)))
    }
}
