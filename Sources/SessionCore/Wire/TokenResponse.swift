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
    /// Fields of the answer that could not be read and were dropped (names
    /// only, `user.created_at`); empty when everything was read. Not encoded.
    public var droppedFields: [String] = []

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

    /// Reads the two tokens strictly and everything else leniently (docs/PROTOCOL.md, rule C).
    ///
    /// `expires_in` and `expires_at` may be numbers or numbers in strings;
    /// the user is read as ``SessionUser/init(from:)`` reads one. A field
    /// that still cannot be read is dropped, its name kept in
    /// ``droppedFields`` for the client to log, and the answer is kept.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try c.decode(String.self, forKey: .accessToken)
        refreshToken = try c.decode(String.self, forKey: .refreshToken)
        var fields = LenientFields(container: c, decoder: decoder)
        tokenType = fields.string(.tokenType) ?? "bearer"
        expiresIn = fields.seconds(.expiresIn) ?? 0
        expiresAt = fields.seconds(.expiresAt)
        user = fields.decode(SessionUser.self, .user)
        providerToken = fields.string(.providerToken)
        providerRefreshToken = fields.string(.providerRefreshToken)
        droppedFields = (decoder.userInfo[DroppedFields.key] as? DroppedFields)?.all ?? []
    }
}

extension LenientFields {
    /// Whole seconds: an integer, a fractional number, or either in a string; out of range is dropped.
    mutating func seconds(_ key: Key) -> Int? {
        guard let value = raw(key) else { return nil }
        if let seconds = LenientDecoding.seconds(value), abs(seconds) < 1e11 { return Int(seconds.rounded(.down)) }
        DroppedFields.report(key, in: decoder)
        return nil
    }
}

extension TokenResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// Redacted: no part of a token.
    public var description: String {
        "TokenResponse(access: \(TokenRedaction.redacted(accessToken)), refresh: \(TokenRedaction.redacted(refreshToken)), "
            + "expiresIn: \(expiresIn), expiresAt: \(expiresAt.map(String.init) ?? "-"), user: \(user?.id ?? "-"))"
    }

    public var debugDescription: String { description }
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
