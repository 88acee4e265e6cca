import Crypto

/// Where ``AccessTokenVerifier`` finds the public key for a `kid`.
///
/// The server's own ``KeyRing`` is one; ``RemoteJWKSKeySource`` (a hosted
/// Supabase project's JWKS, say) is another.
public protocol VerificationKeySource: Sendable {
    /// The ES256 public key for `kid`, or `nil` when no such key exists.
    ///
    /// - Throws: when the keys cannot be read right now (database or network
    ///   down); callers answer that as a server fault, not as a bad token.
    func verificationKey(kid: String) async throws -> P256.Signing.PublicKey?
}
