import Foundation
import SessionCore

/// Checks a request's DPoP proof as RFC 9449 §4.3 says, in the order of
/// docs/DPOP.md: one header, a well-formed ES256 proof with a public P-256
/// key, its signature, `htm`, `htu`, `iat` within the window around the
/// server's clock, `ath` on resource requests, the server nonce when nonces are
/// on, and last the `jti` (recorded
/// only for a proof that passed every other check, so a forged proof cannot
/// spend a real one's `jti`).
struct DPoPVerifier: Sendable {
    let replay: any DPoPReplayGuard
    /// The server's public base URL (`--external-url`); `nil` checks `htu` against `Host`.
    let externalURL: URL?
    /// How old a proof may be (docs/DPOP.md: 300 s).
    var maximumAge: TimeInterval = 300
    /// How far ahead of the server's clock a proof may be (60 s).
    var maximumAhead: TimeInterval = 60
    /// `--dpop-nonce`: every proof must carry a current server nonce; `nil` ignores `nonce`.
    var nonces: DPoPNonces? = nil

    /// What a request offers for checking.
    struct Presented: Sendable {
        /// Every `DPoP` header value (two or more are refused).
        var proofs: [String]
        var method: String
        /// The request path, without query.
        var path: String
        var host: String?
        /// The access token sent with it, on resource requests: then `ath` is required.
        var accessToken: String?
    }

    /// The proof's key thumbprint (`jkt`), once every check passed.
    ///
    /// - Throws: ``DPoPError``; what the replay guard throws (a database outage) as is.
    func verify(_ presented: Presented, now: Date) async throws -> String {
        guard presented.proofs.count <= 1 else { throw DPoPError.multiple }
        guard let text = presented.proofs.first else { throw DPoPError.missing }
        let proof = try DPoPProof(compact: text)
        guard proof.isSignedByItsKey else { throw DPoPError.badSignature }
        let claims = proof.claims
        guard claims.htm == presented.method.uppercased() else { throw DPoPError.wrongMethod }
        let expected = DPoPURL.expected(path: presented.path, externalURL: externalURL, host: presented.host)
        guard let htu = DPoPURL.normalised(claims.htu), expected.contains(htu) else { throw DPoPError.wrongURL }
        let age = now.timeIntervalSince1970 - claims.iat
        guard age <= maximumAge, -age <= maximumAhead else { throw DPoPError.issuedOutsideWindow }
        if let accessToken = presented.accessToken {
            guard let ath = claims.ath,
                  SHA256Hex.constantTimeEquals(ath, DPoPClaims.accessTokenHash(accessToken))
            else { throw DPoPError.wrongAccessTokenHash }
        }
        // After every other check (a forged proof learns nothing), before the jti is
        // recorded: the client retries with a new proof anyway (docs/DPOP.md, "Nonces").
        if let nonces, !nonces.accepts(claims.nonce, at: now) { throw DPoPError.useNonce }
        let jkt = proof.key.thumbprint
        // Kept until the proof leaves the window: after that its iat refuses it anyway.
        let until = Date(timeIntervalSince1970: claims.iat + maximumAge + 1)
        guard try await replay.recordFirstUse(of: SHA256Hex.of(jkt + "." + claims.jti), until: until, now: now) else {
            throw DPoPError.replayed
        }
        return jkt
    }
}
