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
    /// `aal`: `aal2` once the session verified a second factor (docs/MFA.md); `nil` when absent.
    public var aal: String? = nil
    /// `cnf.jkt`: the thumbprint of the key the token is bound to (docs/DPOP.md); `nil` for a Bearer token.
    public var confirmationJKT: String? = nil

    /// True when the token proves a verified second factor.
    public var isAAL2: Bool { aal == "aal2" }
}
