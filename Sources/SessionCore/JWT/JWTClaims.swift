import Foundation

/// The claims SessionKit reads from a Supabase-style access token.
public struct JWTClaims: Sendable, Hashable, Codable {
    public var sub: String?
    /// Audience: a string or an array of strings on the wire.
    public var aud: [String]
    public var role: String?
    public var exp: Date?
    public var iat: Date?
    public var nbf: Date?
    public var iss: String?
    public var sessionId: String?
    public var email: String?

    public init(
        sub: String?, aud: [String], role: String?, exp: Date?, iat: Date?, nbf: Date? = nil, iss: String?,
        sessionId: String?, email: String?
    ) {
        self.sub = sub
        self.aud = aud
        self.role = role
        self.exp = exp
        self.iat = iat
        self.nbf = nbf
        self.iss = iss
        self.sessionId = sessionId
        self.email = email
    }

    enum CodingKeys: String, CodingKey {
        case sub, aud, role, exp, iat, nbf, iss, email
        case sessionId = "session_id"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sub = try c.decodeIfPresent(String.self, forKey: .sub)
        if c.contains(.aud), try !c.decodeNil(forKey: .aud) {
            do {
                aud = [try c.decode(String.self, forKey: .aud)]
            } catch DecodingError.typeMismatch {
                aud = try c.decode([String].self, forKey: .aud)
            }
        } else {
            aud = []
        }
        role = try c.decodeIfPresent(String.self, forKey: .role)
        exp = try Self.decodeNumericDate(c, .exp)
        iat = try Self.decodeNumericDate(c, .iat)
        nbf = try Self.decodeNumericDate(c, .nbf)
        iss = try c.decodeIfPresent(String.self, forKey: .iss)
        sessionId = try c.decodeIfPresent(String.self, forKey: .sessionId)
        email = try c.decodeIfPresent(String.self, forKey: .email)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(sub, forKey: .sub)
        if aud.count == 1 { try c.encode(aud[0], forKey: .aud) } else { try c.encode(aud, forKey: .aud) }
        try c.encodeIfPresent(role, forKey: .role)
        try c.encodeIfPresent(exp.map { Int($0.timeIntervalSince1970) }, forKey: .exp)
        try c.encodeIfPresent(iat.map { Int($0.timeIntervalSince1970) }, forKey: .iat)
        try c.encodeIfPresent(nbf.map { Int($0.timeIntervalSince1970) }, forKey: .nbf)
        try c.encodeIfPresent(iss, forKey: .iss)
        try c.encodeIfPresent(sessionId, forKey: .sessionId)
        try c.encodeIfPresent(email, forKey: .email)
    }

    /// NumericDate (RFC 7519 §2): seconds since the epoch, integer or not.
    private static func decodeNumericDate(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date? {
        guard let seconds = try c.decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard seconds.isFinite, abs(seconds) < 1e11 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c, debugDescription: "\(key.rawValue) is not a plausible NumericDate")
        }
        return Date(timeIntervalSince1970: seconds)
    }
}
