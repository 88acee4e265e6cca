import Foundation

/// The claims the server writes into an access token (Supabase's set).
struct AccessTokenClaims: Sendable, Encodable {
    var sub: String
    var aud: String
    var role: String
    var exp: Int
    var iat: Int
    var iss: String
    var sessionID: String
    var email: String
    var aal = "aal1"
    var isAnonymous = false

    enum CodingKeys: String, CodingKey {
        case sub, aud, role, exp, iat, iss, email, aal
        case sessionID = "session_id"
        case isAnonymous = "is_anonymous"
    }
}

/// The JOSE header of an access token.
struct AccessTokenHeader: Sendable, Codable {
    var alg: String
    var kid: String?
    var typ: String?
}
