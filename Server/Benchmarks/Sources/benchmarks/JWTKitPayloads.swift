import Foundation
import JWTKit

/// The claims SessionKit's tokens carry, as jwt-kit 5 payloads (item 7).
enum JWTKitPayloads {
    /// An access token's claims (`AccessTokenClaims` on the server).
    struct Access: JWTPayload {
        struct AuthenticationMethod: Codable, Sendable {
            var method: String
            var timestamp: Int
        }

        var sub: SubjectClaim
        var aud: AudienceClaim
        var role: String
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var iss: IssuerClaim
        var sessionID: String
        var email: String
        var aal: String
        var amr: [AuthenticationMethod]
        var isAnonymous: Bool

        enum CodingKeys: String, CodingKey {
            case sub, aud, role, exp, iat, iss, email, aal, amr
            case sessionID = "session_id"
            case isAnonymous = "is_anonymous"
        }

        /// What `AccessTokenVerifier` checks of the claims, less `aud` and
        /// `iss`: a payload cannot be told which to expect, so the caller
        /// checks those two after `verify`, as ours does inside it.
        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    /// A service-role key's claims (`ServiceRoleClaims`): the one token our
    /// issuer signs through a public entry point, so the signing comparison uses it.
    struct ServiceRole: JWTPayload {
        var sub: SubjectClaim
        var aud: AudienceClaim
        var role: String
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var iss: IssuerClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }
}
