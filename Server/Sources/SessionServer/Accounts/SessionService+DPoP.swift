import Foundation
import Logging
import SessionCore

extension SessionService {
    /// A bound session refreshes only with a proof by its key (docs/DPOP.md).
    /// Checked before rotation, so a refused token is not consumed and its
    /// family is not revoked: a stranger replaying a copied token must not sign
    /// its owner out. Counted and audited as a possible theft.
    ///
    /// - Throws: ``AuthError/dpopGrantRefused(_:)`` (400 `invalid_dpop_proof`).
    func requireBindingKept(_ refreshToken: String, proof: String?, ip: String?) async throws {
        guard let binding = try await store.dpopBinding(refreshTokenHash: RefreshTokenCodec.hash(refreshToken)),
              let bound = binding.jkt, bound != proof
        else { return }
        let error: DPoPError = proof == nil ? .missing : .keyMismatch
        metrics.dpopRefused(reason: error.reason)
        logger.warning(
            "A bound session's refresh token came without its key's proof: possible theft",
            metadata: ["user.id": "\(binding.userID)", "session.id": "\(binding.sessionID)", "reason": "\(error.reason)"])
        try await store.audit(
            actor: binding.userID, action: "dpop_proof_refused", target: binding.sessionID, ip: ip,
            details: ["reason": .string(error.reason)], now: clock.now)
        throw AuthError.dpopGrantRefused(error)
    }
}
