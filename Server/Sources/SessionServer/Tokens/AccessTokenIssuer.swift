import Foundation
import SessionCore

/// Signs ES256 access tokens with the key ring's current key.
struct AccessTokenIssuer: Sendable {
    let keyRing: KeyRing
    let issuer: String
    let audience: String
    let lifetime: TimeInterval

    /// A signed token for `userID`'s `session`, and its expiry.
    ///
    /// - Parameter isAnonymous: the user signed in with neither email nor phone (the `is_anonymous` claim).
    func issue(
        userID: String, email: String?, isAnonymous: Bool = false, session: SessionRecord, now: Date
    ) async throws -> (token: String, expiresAt: Date) {
        let key = try await keyRing.currentKey()
        let issuedAt = Int(now.timeIntervalSince1970)
        let expiresAt = issuedAt + Int(lifetime)
        let claims = AccessTokenClaims(
            sub: userID, aud: audience, role: "authenticated", exp: expiresAt, iat: issuedAt, iss: issuer,
            // GoTrue writes an empty email claim for users without one; clients expect the key.
            sessionID: session.id, email: email ?? "", aal: session.assuranceLevel, amr: Self.amr(of: session),
            isAnonymous: isAnonymous, cnf: session.dpopJKT.map { Confirmation(jkt: $0) })
        return (try Self.sign(claims, with: key), Date(timeIntervalSince1970: TimeInterval(expiresAt)))
    }

    /// How the session proved who it is, newest first, as GoTrue lists it
    /// (`internal/models/amr.go`): `totp` once a second factor was verified, then the first-factor method.
    static func amr(of session: SessionRecord) -> [AuthenticationMethodReference] {
        var entries = [
            AuthenticationMethodReference(
                method: session.authMethod ?? "password", timestamp: Int(session.createdAt.timeIntervalSince1970))
        ]
        if session.aal == "aal2", let verifiedAt = session.mfaVerifiedAt {
            entries.insert(AuthenticationMethodReference(method: "totp", timestamp: Int(verifiedAt.timeIntervalSince1970)), at: 0)
        }
        return entries
    }

    /// The service-role key: `role: service_role`, no session, signed like
    /// every access token (docs/ADMIN.md). It verifies as long as the key
    /// that signed it does: retiring that key revokes it.
    /// `name` and a random `jti` identify it in the console and the audit log.
    func issueServiceRole(name: String, now: Date, lifetime: TimeInterval) async throws -> String {
        let key = try await keyRing.currentKey()
        let issuedAt = Int(now.timeIntervalSince1970)
        return try Self.sign(
            ServiceRoleClaims(
                aud: audience, iat: issuedAt, exp: issuedAt + Int(lifetime), iss: issuer,
                jti: String(RefreshTokenCodec.generate().prefix(16)), keyName: name),
            with: key)
    }

    private static func sign(_ claims: some Encodable, with key: SigningKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = try encoder.encode(AccessTokenHeader(alg: "ES256", kid: key.kid, typ: "JWT"))
        let payload = try encoder.encode(claims)
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        return signingInput + "." + (try key.sign(signingInput))
    }
}

/// The service-role key's claims: Supabase's service key's, with a `sub`
/// naming the role (no user) and no `session_id`, so routes that need a
/// signed-in person refuse it.
struct ServiceRoleClaims: Sendable, Encodable {
    var sub = ServiceRoleClaims.role
    var aud: String
    var role = ServiceRoleClaims.role
    var iat: Int
    var exp: Int
    var iss: String
    /// The key's id: named in the audit log, so one key can be told from another.
    var jti: String
    /// The operator's name for the key (`auth-server keys service-role --name`).
    var keyName: String

    enum CodingKeys: String, CodingKey {
        case sub, aud, role, iat, exp, iss, jti
        case keyName = "key_name"
    }

    static let role = "service_role"
}
