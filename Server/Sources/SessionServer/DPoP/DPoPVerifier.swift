import Foundation
import SessionCore

/// Checks a request's DPoP proof as RFC 9449 §4.3 says, in the order of
/// docs/DPOP.md: one header, a well-formed ES256 proof with a public P-256
/// key, its signature, `htm`, `htu`, `iat` within the window around the
/// server's clock, `ath` on resource requests, the server nonce when nonces are
/// on, and last the `jti` (recorded
/// only for a proof that passed every other check, so a forged proof cannot
/// spend a real one's `jti`).
///
/// `package`, not internal: the benchmarks (Benchmarks/Sources/benchmarks,
/// item 9) time ``check(_:now:)`` beside one raw ES256 verify.
package struct DPoPVerifier: Sendable {
    let replay: any DPoPReplayGuard
    /// The server's public base URL (`--external-url`); `nil` checks `htu` against `Host`.
    let externalURL: URL?
    /// How old a proof may be (docs/DPOP.md: 300 s).
    var maximumAge: TimeInterval = 300
    /// How far ahead of the server's clock a proof may be (60 s).
    var maximumAhead: TimeInterval = 60
    /// `--dpop-nonce`: every proof must carry a current server nonce; `nil` ignores `nonce`.
    var nonces: DPoPNonces? = nil

    package init(replay: any DPoPReplayGuard, externalURL: URL?) {
        self.replay = replay
        self.externalURL = externalURL
    }

    /// What a request offers for checking.
    package struct Presented: Sendable {
        /// Every `DPoP` header value (two or more are refused).
        var proofs: [String]
        var method: String
        /// The request path, without query.
        var path: String
        var host: String?
        /// The access token sent with it, on resource requests: then `ath` is required.
        var accessToken: String?

        package init(proofs: [String], method: String, path: String, host: String?, accessToken: String?) {
            self.proofs = proofs
            self.method = method
            self.path = path
            self.host = host
            self.accessToken = accessToken
        }
    }

    /// A proof that passed every check but the replay guard's.
    package struct Checked: Sendable {
        /// The proof's key thumbprint (`jkt`).
        package let thumbprint: String
        /// What the replay guard records: a hash of the thumbprint and the `jti`.
        let replayKey: String
        /// Kept until the proof leaves the window: after that its iat refuses it anyway.
        let until: Date
    }

    /// The proof's key thumbprint (`jkt`), once every check passed.
    ///
    /// - Throws: ``DPoPError``; what the replay guard throws (a database outage) as is.
    func verify(_ presented: Presented, now: Date) async throws -> String {
        let checked = try check(presented, now: now)
        guard try await replay.recordFirstUse(of: checked.replayKey, until: checked.until, now: now) else {
            throw DPoPError.replayed
        }
        return checked.thumbprint
    }

    /// Every check of ``verify(_:now:)`` but the `jti`'s first use, which only
    /// the replay guard can answer (a database write): apart so the proof's
    /// own cost can be measured without the store.
    ///
    /// - Throws: ``DPoPError``.
    package func check(_ presented: Presented, now: Date) throws -> Checked {
        guard presented.proofs.count <= 1 else { throw DPoPError.multiple }
        guard let text = presented.proofs.first else { throw DPoPError.missing }
        let proof = try DPoPProof(compact: text)
        guard proof.isSignedByItsKey else { throw DPoPError.badSignature }
        let claims = proof.claims
        guard claims.htm == presented.method.uppercased() else { throw DPoPError.wrongMethod }
        guard DPoPURL.matches(claims.htu, path: presented.path, externalURL: externalURL, host: presented.host) else {
            throw DPoPError.wrongURL
        }
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
        return Checked(
            thumbprint: jkt, replayKey: SHA256Hex.of(jkt + "." + claims.jti),
            until: Date(timeIntervalSince1970: claims.iat + maximumAge + 1))
    }
}
