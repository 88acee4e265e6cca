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
    /// How and when the session signed in, as Supabase writes it; a refresh keeps it.
    var amr: [AuthenticationMethodReference]
    var isAnonymous = false
    /// `{"jkt": …}` for a DPoP-bound session (RFC 9449 §6.1); absent when unbound.
    var cnf: Confirmation? = nil

    enum CodingKeys: String, CodingKey {
        case sub, aud, role, exp, iat, iss, email, aal, amr, cnf
        case sessionID = "session_id"
        case isAnonymous = "is_anonymous"
    }
}

/// One `amr` entry: `{"method": "password", "timestamp": 1700000000}`.
struct AuthenticationMethodReference: Sendable, Codable, Hashable {
    var method: String
    /// When the person signed in (seconds since 1970): the proof of presence's age.
    var timestamp: Int
}

/// The JOSE header of an access token.
struct AccessTokenHeader: Sendable, Codable {
    var alg: String
    var kid: String?
    var typ: String?
}

/// The `cnf` claim: the thumbprint of the key a token is bound to (RFC 7800, RFC 9449 §6.1).
struct Confirmation: Sendable, Codable, Hashable {
    var jkt: String?
}
