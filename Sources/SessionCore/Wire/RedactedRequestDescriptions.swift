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

extension AccountDeletion: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        "AccountDeletion(currentPassword: \(currentPassword == nil ? "-" : "<redacted>"), nonce: \(nonce == nil ? "-" : "<redacted>"))"
    }
    public var debugDescription: String { description }
}

extension UserAttributes: CustomStringConvertible, CustomDebugStringConvertible {
    /// The email and the metadata's keys are shown; the password, the current password and the nonce are not.
    public var description: String {
        func secret(_ value: String?) -> String { value == nil ? "-" : "<redacted>" }
        return "UserAttributes(email: \(email ?? "-"), password: \(secret(password)), currentPassword: \(secret(currentPassword)), "
            + "nonce: \(secret(nonce)), data: \(data.map { "\($0.keys.sorted())" } ?? "-"))"
    }
    public var debugDescription: String { description }
}

extension VerifyRequest: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "VerifyRequest(type: \(type), email: \(email ?? "-"), token: <redacted>)" }
    public var debugDescription: String { description }
}
