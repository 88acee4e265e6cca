import Foundation

/// Sign in with Apple by ID token (`grant_type=id_token`, `provider=apple`):
/// the app gets the token from `ASAuthorizationController` and sends it with
/// the nonce it chose (docs/OAUTH.md, "Sign in with Apple").
public struct AppleSignInConfiguration: Sendable, Hashable {
    /// The `aud` values accepted: the app's bundle id, and the Services ID for web sign-in.
    public var clientIDs: [String]
    /// Apple's issuer; tests point it at their own.
    public var issuer: String
    /// Apple's public keys; tests serve their own.
    public var jwksURL: URL

    public init(
        clientIDs: [String], issuer: String = "https://appleid.apple.com",
        jwksURL: URL = URL(string: "https://appleid.apple.com/auth/keys")!
    ) {
        self.clientIDs = clientIDs
        self.issuer = issuer
        self.jwksURL = jwksURL
    }
}
