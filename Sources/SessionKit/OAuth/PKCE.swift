#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation
import SessionCore

/// RFC 7636 verifier and S256 challenge.
public enum PKCE {
    /// A new verifier: 32 bytes from the system CSPRNG, base64url (43 characters).
    public static func makeVerifier() -> String {
        // SystemRandomNumberGenerator reads the OS CSPRNG (getrandom / arc4random).
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    /// `BASE64URL(SHA256(verifier))`.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
    }
}

/// What an app asks when it starts an OAuth sign-in; a backend turns it into a URL.
public struct OAuthAuthorizationRequest: Sendable, Hashable {
    /// The provider's name on the server (`strava`).
    public var provider: String
    /// Where the server sends the person back (must be on its allow-list).
    public var redirectTo: URL
    /// Scopes to ask for; empty lets the server use the provider's defaults.
    public var scopes: [String]
    /// `BASE64URL(SHA256(verifier))`.
    public var codeChallenge: String
    /// A random value the client expects back in a token-style callback
    /// (`#access_token=…&state=…`); backends that hand tokens back directly
    /// should carry it through. GoTrue's code flow is bound by PKCE instead.
    public var state: String?

    public init(provider: String, redirectTo: URL, scopes: [String], codeChallenge: String, state: String? = nil) {
        self.provider = provider
        self.redirectTo = redirectTo
        self.scopes = scopes
        self.codeChallenge = codeChallenge
        self.state = state
    }
}
