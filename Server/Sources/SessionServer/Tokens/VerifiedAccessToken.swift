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

/// The `aal` claim, read apart from ``JWTClaims`` (a wire type the client shares).
struct AssuranceClaim: Decodable {
    var aal: String?
    /// Read with `aal`, in the same decode: `cnf.jkt`.
    var cnf: Confirmation?

    private static let decoder = JSONDecoder()

    /// The signed payload's `aal`; `nil` when it is absent or not a string (then the token counts as `aal1`).
    static func read(from payload: Data) -> String? { decode(payload).aal }

    /// `aal` and `cnf.jkt` of the signed payload. A foreign issuer's odd `aal`
    /// only means no second factor is proven; an odd `cnf` is read as a binding
    /// to no key, which no proof matches (``AccessTokenVerifier`` refuses it).
    static func decode(_ payload: Data) -> (aal: String?, jkt: String?) {
        do {
            let claim = try decoder.decode(AssuranceClaim.self, from: payload)
            return (claim.aal, claim.cnf.map { $0.jkt ?? "" })
        } catch {
            // Fail closed: a `cnf` we cannot read binds the token to no key at all.
            return (nil, payload.range(of: Data(#""cnf""#.utf8)) != nil ? "" : nil)
        }
    }
}
