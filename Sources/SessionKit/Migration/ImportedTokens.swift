import Foundation
import SessionCore

/// Tokens an app already holds (from a hand-rolled session), checked before
/// ``SessionClient/importSession(accessToken:refreshToken:expiresAt:user:)`` adopts them.
///
/// A pure function of its inputs: the tokens must look like tokens, and the
/// expiry is the access token's own `exp` when it is a JWT (the server checks
/// that one; a separately kept `expiresAt` may have drifted from it), else
/// the one the app kept, else unknown. An unknown or implausible expiry is
/// never taken as "still valid": the client refreshes first.
struct ImportedTokens: Sendable {
    static let maximumAccessTokenLength = 16 * 1024
    static let maximumRefreshTokenLength = 2048
    /// An expiry further away than this is not believed (a millisecond timestamp read as seconds, say).
    static let longestBelievableLifetime: TimeInterval = 366 * 24 * 3600

    let accessToken: String
    let refreshToken: String
    /// When the access token expires, in server time; `nil` when nobody knows.
    let expiresAt: Date?
    /// The access token's lifetime, when its claims say (`exp - iat`).
    let lifetime: TimeInterval?
    /// The person the access token's claims name, if it is a JWT that names one.
    let claimedUser: SessionUser?
    /// True when the app's `expiresAt` and the JWT's `exp` differ by more than a minute.
    let expiryDisagrees: Bool

    /// - Parameters:
    ///   - expiresAt: the expiry the app kept, if any.
    ///   - serverNow: the estimated server time, to judge `expiresAt`.
    /// - Throws: ``SessionError/invalidRequest`` naming the token that is empty, too long, or not one token.
    init(accessToken: String, refreshToken: String, expiresAt: Date?, serverNow: Date) throws(SessionError) {
        try Self.check(accessToken, named: "access token", maximum: Self.maximumAccessTokenLength)
        try Self.check(refreshToken, named: "refresh token", maximum: Self.maximumRefreshTokenLength)
        let claims = Self.claims(of: accessToken)
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.claimedUser = claims.flatMap(SessionUser.init(claims:))
        if let exp = claims?.exp, let iat = claims?.iat, exp > iat {
            lifetime = exp.timeIntervalSince(iat)
        } else {
            lifetime = nil
        }
        let kept = expiresAt.flatMap { date in
            date.timeIntervalSince(serverNow) <= Self.longestBelievableLifetime ? date : nil
        }
        if let exp = claims?.exp {
            self.expiresAt = exp
            expiryDisagrees = expiresAt.map { abs($0.timeIntervalSince(exp)) > 60 } ?? false
        } else {
            self.expiresAt = kept
            expiryDisagrees = false
        }
    }

    private static func check(_ token: String, named name: String, maximum: Int) throws(SessionError) {
        if token.isEmpty {
            throw SessionError.invalidRequest.with(message: "The \(name) to import is empty.")
        }
        if token.utf8.count > maximum {
            throw SessionError.invalidRequest.with(message: "The \(name) to import is too long to be a token.")
        }
        // A token is one printable word: whitespace or control characters mean a
        // mangled value (two values joined, a stray newline), never a token.
        if token.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            throw SessionError.invalidRequest.with(message: "The \(name) to import contains spaces or control characters.")
        }
    }

    private static func claims(of token: String) -> JWTClaims? {
        do {
            return try UnverifiedJWT(token).claims
        } catch {
            // An opaque access token: no claims; the expiry the app kept decides.
            return nil
        }
    }
}
