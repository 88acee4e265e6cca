// Request bodies that carry a secret (a refresh token, a password, an ID
// token, a one-time code) describe themselves without it, so an app that
// prints or logs a request value never leaks one.

extension RefreshTokenRequest: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "RefreshTokenRequest(refreshToken: \(TokenRedaction.redacted(refreshToken)))" }
    public var debugDescription: String { description }
}

extension PasswordCredentials: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "PasswordCredentials(email: \(email), password: <redacted>)" }
    public var debugDescription: String { description }
}

extension PKCETokenRequest: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "PKCETokenRequest(authCode: <redacted>, codeVerifier: <redacted>)" }
    public var debugDescription: String { description }
}

extension IDTokenRequest: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        "IDTokenRequest(provider: \(provider), idToken: \(TokenRedaction.redacted(idToken)), nonce: \(nonce == nil ? "-" : "<redacted>"))"
    }
    public var debugDescription: String { description }
}

extension PasswordUpdate: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "PasswordUpdate(password: <redacted>)" }
    public var debugDescription: String { description }
}

extension VerifyRequest: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "VerifyRequest(type: \(type), email: \(email ?? "-"), token: <redacted>)" }
    public var debugDescription: String { description }
}
