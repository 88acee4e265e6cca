import Foundation
import SessionCore
import HTTPTypes
import Hummingbird

/// The DPoP check of the routes that start or refresh a session (docs/DPOP.md,
/// "Binding"): a proof is optional unless `--require-dpop`; one that is sent
/// must be valid, and its key's thumbprint becomes the session's binding.
struct DPoPGate: Sendable {
    let verifier: DPoPVerifier
    /// `--require-dpop`: every grant needs a valid proof.
    let required: Bool
    let metrics: ServerMetrics
    let clock: any SessionClock

    /// The `DPoP` request header.
    static let header = HTTPField.Name("DPoP")!

    /// The thumbprint to bind the answered session to, or `nil` when no proof
    /// was sent and none is required.
    ///
    /// - Throws: ``AuthError/dpopGrantRefused(_:)`` (400 `invalid_dpop_proof`).
    func grantBinding(_ request: Request) async throws -> String? {
        let proofs = request.headers[values: Self.header]
        if proofs.isEmpty, !required { return nil }
        do {
            return try await verifier.verify(Self.presented(request, proofs: proofs, accessToken: nil), now: clock.now)
        } catch let error as DPoPError {
            // A nonce request is the protocol working, not a refused proof (docs/DPOP.md, "Nonces").
            if error != .useNonce { metrics.dpopRefused(reason: error.reason) }
            throw AuthError.dpopGrantRefused(error)
        }
    }

    /// The binding of a grant behind ``AuthMiddleware`` (the factor verify): the
    /// middleware checked the proof already (one check, or its `jti` would replay).
    func grantBinding(verifiedByMiddleware jkt: String?) throws -> String? {
        if jkt == nil, required {
            metrics.dpopRefused(reason: DPoPError.missing.reason)
            throw AuthError.dpopGrantRefused(.missing)
        }
        return jkt
    }

    static func presented(_ request: Request, proofs: [String], accessToken: String?) -> DPoPVerifier.Presented {
        DPoPVerifier.Presented(
            proofs: proofs, method: request.method.rawValue, path: request.uri.path,
            host: request.head.authority, accessToken: accessToken)
    }
}
