import Foundation

/// The session body GoTrue answers on sign-up, sign-in and refresh.
public struct TokenResponse: Sendable, Hashable, Codable {
    public var accessToken: String
    public var tokenType: String
    /// Lifetime of the access token in seconds, as the server counted it.
    public var expiresIn: Int
    /// Expiry as Unix seconds; older GoTrue versions omit it.
    public var expiresAt: Int?
    public var refreshToken: String
    public var user: SessionUser
    /// Tokens of the OAuth provider, when the session came from one.
    public var providerToken: String?
    public var providerRefreshToken: String?

    public init(
        accessToken: String, tokenType: String = "bearer", expiresIn: Int, expiresAt: Int?,
        refreshToken: String, user: SessionUser, providerToken: String? = nil, providerRefreshToken: String? = nil
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
