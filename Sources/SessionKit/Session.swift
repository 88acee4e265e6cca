import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// A signed-in session: the tokens, when the access token expires and who it belongs to.
///
/// `expiresAt` is in the server's time (as the server wrote `expires_at`);
/// ``SessionClient`` compares it with its estimate of the server's clock.
public struct Session: Sendable, Hashable {
    public var accessToken: String
    public var refreshToken: String
    public var tokenType: String
    /// When the access token expires, in server time.
    public var expiresAt: Date
    /// Lifetime of the access token in seconds, when known (`expires_in`).
    public var lifetime: TimeInterval?
    /// The user, when the server sent one.
    public var user: SessionUser?

    public init(
        accessToken: String, refreshToken: String, tokenType: String = "bearer", expiresAt: Date,
        lifetime: TimeInterval? = nil, user: SessionUser? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.lifetime = lifetime
        self.user = user
    }

    /// The session id claim of the access token, when it carries one.
    public var sessionID: String? {
        do {
            return try UnverifiedJWT(accessToken).claims.sessionId
        } catch {
            // Opaque access tokens carry no claims; no session id then.
            return nil
        }
    }
}

extension Session: CustomStringConvertible, CustomDebugStringConvertible {
    /// Redacted: no character of either token.
    public var description: String {
        "Session(access: \(TokenRedaction.redacted(accessToken)), refresh: \(TokenRedaction.redacted(refreshToken)), "
            + "expiresAt: \(WireCoding.formatDate(expiresAt)), user: \(user?.id ?? "-"))"
    }

    public var debugDescription: String { description }
}

extension Session {
    /// Builds a session from a token response.
    ///
    /// The expiry is `expires_at`, else `serverNow + expires_in` when that is
    /// positive, else the JWT's `exp`, else `serverNow` (already due: it is
    /// used once and refreshed after a backoff, never trusted for long). The
    /// user is the body's, else the one the JWT's claims describe.
    ///
    /// - Parameters:
    ///   - response: the server's session body.
    ///   - serverNow: the estimated server time.
    public init(response: TokenResponse, serverNow: Date) {
        let claims = Self.claims(of: response.accessToken)
        var lifetime: TimeInterval? = response.expiresIn > 0 ? TimeInterval(response.expiresIn) : nil
        let expiresAt: Date
        if let at = response.expiresAt, at > 0 {
            expiresAt = Date(timeIntervalSince1970: TimeInterval(at))
        } else if let lifetime {
            expiresAt = serverNow.addingTimeInterval(lifetime)
        } else if let exp = claims?.exp {
            expiresAt = exp
            if let iat = claims?.iat, exp > iat { lifetime = exp.timeIntervalSince(iat) }
        } else {
            expiresAt = serverNow
        }
        var user = response.user
        if user == nil, var named = claims.flatMap(SessionUser.init(claims:)) {
            // A user read from the claims says what the token says about anonymity, not the initializer's default.
            named.isAnonymous = AnonymityClaim.of(response.accessToken)
            user = named
        }
        self.init(
            accessToken: response.accessToken, refreshToken: response.refreshToken, tokenType: response.tokenType,
            expiresAt: expiresAt, lifetime: lifetime, user: user)
    }

    private static func claims(of token: String) -> JWTClaims? {
        do {
            return try UnverifiedJWT(token).claims
        } catch {
            // An opaque access token: no claims to read; the body's fields decide.
            return nil
        }
    }
}
