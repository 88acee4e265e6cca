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

    /// True when the token proves a verified second factor.
    public var isAAL2: Bool { aal == "aal2" }
}

/// The `aal` claim, read apart from ``JWTClaims`` (a wire type the client shares).
struct AssuranceClaim: Decodable {
    var aal: String?

    private static let decoder = JSONDecoder()

    /// The signed payload's `aal`; `nil` when it is absent or not a string (then the token counts as `aal1`).
    static func read(from payload: Data) -> String? {
        do {
            return try decoder.decode(AssuranceClaim.self, from: payload).aal
        } catch {
            // A foreign issuer's odd `aal` only means no second factor is proven.
            return nil
        }
    }
}
