import Foundation
import SessionCore

/// An access token whose signature and claims checked out.
public struct VerifiedAccessToken: Sendable, Hashable {
    /// `sub`: the user's id.
    public let userID: String
    /// `session_id`, when the issuer sets one (Supabase and this server do).
    public let sessionID: String?
    /// `email`, when present.
    public let email: String?
    /// All claims as read.
    public let claims: JWTClaims
    /// `kid` of the key that signed it.
    public var keyID: String? = nil
}
