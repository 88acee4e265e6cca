import Foundation

/// One public key in a JSON Web Key Set (RFC 7517), as the server serves it.
public struct JWK: Sendable, Hashable, Codable {
    public var kty: String
    public var crv: String?
    public var x: String?
    public var y: String?
    public var kid: String?
    public var alg: String?
    public var use: String?
    public var keyOps: [String]?
    /// RSA modulus and exponent (base64url), for keys such as Apple's.
    public var n: String?
    public var e: String?

    public init(
        kty: String, crv: String?, x: String?, y: String?, kid: String?, alg: String?, use: String?,
        n: String? = nil, e: String? = nil
    ) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.kid = kid
        self.alg = alg
        self.use = use
        self.keyOps = ["verify"]
        self.n = n
        self.e = e
    }

    enum CodingKeys: String, CodingKey {
        case kty, crv, x, y, kid, alg, use, n, e
        case keyOps = "key_ops"
    }
}

/// `{"keys": [...]}`.
public struct JWKS: Sendable, Hashable, Codable {
    public var keys: [JWK]
    public init(keys: [JWK]) { self.keys = keys }
}
