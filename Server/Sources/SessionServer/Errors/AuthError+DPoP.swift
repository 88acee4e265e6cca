import Foundation

/// DPoP refusals (docs/DPOP.md). None ends a session: a stranger's replay of
/// a bound refresh token must not sign its owner out.
extension AuthError {
    /// A grant (`/token`, `/verify`, a passkey or factor verify) refused for its
    /// proof: GoTrue shape, 400 `invalid_dpop_proof` (`use_dpop_nonce` for a nonce to add).
    static func dpopGrantRefused(_ error: DPoPError) -> AuthError {
        AuthError(.dpopProofInvalid, error.message, goTrue: (400, error.code))
    }

    /// A resource request refused for its proof (or a bound token sent as Bearer):
    /// 401, `DPOP_PROOF_REQUIRED` on `/v1`, `invalid_dpop_proof` on `/auth/v1`.
    static func dpopResourceRefused(_ error: DPoPError) -> AuthError {
        AuthError(.dpopProofInvalid, error.message, credentialsSent: true, goTrue: (401, error.code))
    }

    /// `WWW-Authenticate` for a refused proof (RFC 9449 §7.1); the message never holds a quote.
    /// `code` is `invalid_dpop_proof` or `use_dpop_nonce` (RFC 9449 §8).
    static func dpopChallenge(_ message: String, code: String = "invalid_dpop_proof") -> String {
        let description = message.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\\", with: "/")
        return #"DPoP algs="ES256", error="\#(code)", error_description="\#(description)""#
    }
}
