import Foundation

/// The session body GoTrue answers on sign-up, sign-in and refresh.
///
/// Decoding needs only the two tokens: a server that rotated the refresh
/// token has spent the old one, so an answer is kept whenever its tokens can
/// be read, even when it lacks `token_type`, `expires_in` or `user` (custom
/// backends often send `{"access_token","refresh_token","expires_in"}` alone).
public struct TokenResponse: Sendable, Hashable, Codable {
    public var accessToken: String
    public var tokenType: String
    /// Lifetime of the access token in seconds, as the server counted it;
    /// `0` when the server did not say (the expiry then comes from `expires_at`
    /// or the JWT's `exp`).
    public var expiresIn: Int
    /// Expiry as Unix seconds; older GoTrue versions omit it.
    public var expiresAt: Int?
    public var refreshToken: String
    /// The user; `nil` when the server sent none (the client reads the JWT's claims).
    public var user: SessionUser?
    /// Tokens of the OAuth provider, when the session came from one.
    public var providerToken: String?
    public var providerRefreshToken: String?

    public init(
        accessToken: String, tokenType: String = "bearer", expiresIn: Int, expiresAt: Int?,
        refreshToken: String, user: SessionUser?, providerToken: String? = nil, providerRefreshToken: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.user = user
        self.providerToken = providerToken
        self.providerRefreshToken = providerRefreshToken
    }

    enum CodingKeys: String, CodingKey {
        case user
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case expiresAt = "expires_at"
        case refreshToken = "refresh_token"
        case providerToken = "provider_token"
        case providerRefreshToken = "provider_refresh_token"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try c.decode(String.self, forKey: .accessToken)
        refreshToken = try c.decode(String.self, forKey: .refreshToken)
        tokenType = try c.decodeIfPresent(String.self, forKey: .tokenType) ?? "bearer"
        expiresIn = try Self.decodeSeconds(c, .expiresIn) ?? 0
        expiresAt = try Self.decodeSeconds(c, .expiresAt)
        user = try c.decodeIfPresent(SessionUser.self, forKey: .user)
        providerToken = try c.decodeIfPresent(String.self, forKey: .providerToken)
        providerRefreshToken = try c.decodeIfPresent(String.self, forKey: .providerRefreshToken)
    }

    /// Whole seconds, sent as an integer or (by some servers) a fractional number.
    private static func decodeSeconds(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Int? {
        guard let seconds = try c.decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard seconds.isFinite, abs(seconds) < 1e11 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "\(key.rawValue) is out of range")
        }
        return Int(seconds.rounded(.down))
    }
}

/// `POST /auth/v1/token?grant_type=refresh_token` body.
public struct RefreshTokenRequest: Sendable, Hashable, Codable {
    public var refreshToken: String
    public init(refreshToken: String) { self.refreshToken = refreshToken }
    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// `POST /auth/v1/signup` and `token?grant_type=password` body.
public struct PasswordCredentials: Sendable, Hashable, Codable {
    public var email: String
    public var password: String
    /// Initial user metadata (sign-up only).
    public var data: [String: JSONValue]?
    public init(email: String, password: String, data: [String: JSONValue]? = nil) {
        self.email = email
        self.password = password
        self.data = data
    }
}

/// `POST /auth/v1/token?grant_type=pkce` body.
public struct PKCETokenRequest: Sendable, Hashable, Codable {
    public var authCode: String
    public var codeVerifier: String
    public init(authCode: String, codeVerifier: String) {
        self.authCode = authCode
        self.codeVerifier = codeVerifier
    }
    enum CodingKeys: String, CodingKey {
        case authCode = "auth_code"
        case codeVerifier = "code_verifier"
    }
}
