import Foundation
import SessionCore

// Every type that holds a token or a one-time secret describes itself without
// any character of it, so `print`, `dump`-free string interpolation and
// `String(reflecting:)` in an app's own logs never leak one. GoTrue's refresh
// tokens are 12 characters: even a prefix is half the secret.

extension StoredSession: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        "StoredSession(access: \(TokenRedaction.redacted(accessToken)), refresh: \(TokenRedaction.redacted(refreshToken)), "
            + "expiresAt: \(expiresAt.map(WireCoding.formatDate) ?? "-"), user: \(user?.id ?? "-"), "
            + "oauthPending: \(pkceVerifier != nil), sequence: \(sequence))"
    }

    public var debugDescription: String { description }
}

extension OAuthCallback.Tokens: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        "OAuthCallback.Tokens(access: \(TokenRedaction.redacted(accessToken)), refresh: \(TokenRedaction.redacted(refreshToken)), "
            + "expiresIn: \(expiresIn), userID: \(userID), state: \(state == nil ? "-" : "<redacted>"))"
    }

    public var debugDescription: String { description }
}

extension OAuthCallback: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        switch result {
        case .code: "OAuthCallback(code: <redacted>)"
        case .tokens(let tokens): "OAuthCallback(\(tokens))"
        }
    }

    public var debugDescription: String { description }
}

extension SessionClient.PendingOAuth: CustomStringConvertible, CustomDebugStringConvertible {
    var description: String { "PendingOAuth(verifier: <redacted>, started: \(startedAt.map(WireCoding.formatDate) ?? "-"))" }
    var debugDescription: String { description }
}

extension OAuthCallback.Result: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        switch self {
        case .code: "code(<redacted>)"
        case .tokens(let tokens): "tokens(\(tokens))"
        }
    }

    public var debugDescription: String { description }
}
