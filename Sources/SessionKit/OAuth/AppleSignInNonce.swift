#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation
import SessionCore

/// The nonce of one Sign in with Apple: Apple gets ``hashed`` (it puts it in
/// the ID token), the server gets ``raw`` and checks that the two match, so
/// an ID token taken from another sign-in cannot be replayed.
///
/// ```swift
/// let nonce = AppleSignInNonce()
/// request.nonce = nonce.hashed                       // ASAuthorizationAppleIDRequest
/// try await client.signInWithApple(idToken: token, nonce: nonce.raw)
/// ```
public struct AppleSignInNonce: Sendable, Hashable {
    /// 32 bytes from the system CSPRNG, base64url.
    public let raw: String

    /// A new nonce.
    public init() {
        raw = PKCE.makeVerifier()
    }

    /// A given nonce (tests).
    public init(raw: String) {
        self.raw = raw
    }

    /// SHA-256 of ``raw``, lowercase hex: what Apple is given and the ID token carries.
    public var hashed: String {
        SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
