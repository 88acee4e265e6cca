import Foundation
import SessionCore
import Hummingbird

/// How an access token was presented.
enum CredentialScheme: String, Sendable {
    case bearer
    case dpop
}

extension AuthMiddleware {
    /// The resource side of docs/DPOP.md: a bound token (`cnf.jkt`) needs
    /// `Authorization: DPoP` and a proof by its key with `ath`; an unbound one
    /// works as Bearer, as for every GoTrue client. A proof that is sent is
    /// checked even for an unbound token (the factor verify binds with it).
    ///
    /// - Returns: the proof's key thumbprint, or `nil` when no proof was sent.
    /// - Throws: ``AuthError/dpopResourceRefused(_:)`` (401).
    func checkProof(
        _ request: Request, scheme: CredentialScheme, token: String, verified: VerifiedAccessToken, now: Date
    ) async throws -> String? {
        let proofs = request.headers[values: DPoPGate.header]
        let bound = verified.confirmationJKT
        if bound == nil, scheme == .bearer, proofs.isEmpty { return nil }
        // A bound token as Bearer is what a thief who copied it sends (RFC 9449 §7.2).
        if bound != nil, scheme == .bearer { throw refused(.missing) }
        guard let dpop else { throw refused(.missing) }
        let jkt: String
        do {
            jkt = try await dpop.verify(DPoPGate.presented(request, proofs: proofs, accessToken: token), now: now)
        } catch let error as DPoPError {
            throw refused(error)
        }
        if let bound, bound != jkt { throw refused(.keyMismatch) }
        return jkt
    }

    /// The 401 for a refused proof, counted as the grants count theirs; a nonce
    /// request is the protocol working, not a refusal (docs/DPOP.md, "Nonces").
    private func refused(_ error: DPoPError) -> AuthError {
        if error != .useNonce { dpopMetrics?.dpopRefused(reason: error.reason) }
        return AuthError.dpopResourceRefused(error)
    }
}
