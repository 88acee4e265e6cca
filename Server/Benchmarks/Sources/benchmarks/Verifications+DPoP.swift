import Crypto
import Foundation
import SessionCore
import SessionServer

extension Verifications {
    /// Never called: the DPoP arm times ``DPoPVerifier/check(_:now:)``, every
    /// check but the `jti`'s first use, so one proof can be checked again and
    /// again. The replay guard is AuthStore's table, a database write: its
    /// cost belongs with the store (item 4), not with a crypto-bound ratio.
    struct NoReplayStore: DPoPReplayGuard {
        func recordFirstUse(of key: String, until expiresAt: Date, now: Date) async throws -> Bool { true }
    }

    /// A resource request's proof (`GET /auth/v1/user` with its access token,
    /// so `ath` is checked too) through the server's verifier, without the
    /// replay store. Raw: one ES256 verify of the proof's signing input with
    /// the key and signature already parsed.
    static func dpopPair() throws -> VerificationPair {
        let privateKey = P256.Signing.PrivateKey()
        let raw = privateKey.publicKey.rawRepresentation
        let (x, y) = (Base64URL.encode(raw.prefix(32)), Base64URL.encode(raw.suffix(32)))
        let now = Date()
        // An access token's length (about 800 characters, as the server issues them).
        let accessToken = String(repeating: "a", count: 800)
        let ath = Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8))))
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(y)"}}"#
        let payload = #"{"jti":"\#(UUID().uuidString)","htm":"GET","htu":"https://auth.example.com/auth/v1/user","#
            + #""iat":\#(Int(now.timeIntervalSince1970)),"ath":"\#(ath)"}"#
        let input = Data((Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8))).utf8)
        let signature = try privateKey.signature(for: input)
        let proof = String(decoding: input, as: UTF8.self) + "." + Base64URL.encode(signature.rawRepresentation)
        let verifier = DPoPVerifier(replay: NoReplayStore(), externalURL: URL(string: "https://auth.example.com"))
        let presented = DPoPVerifier.Presented(
            proofs: [proof], method: "GET", path: "/auth/v1/user", host: "auth.example.com", accessToken: accessToken)
        let publicKey = privateKey.publicKey
        return VerificationPair(
            name: "DPoP proof verify", rawName: "ES256 verify",
            verify: { _ = try verifier.check(presented, now: now) },
            raw: { publicKey.isValidSignature(signature, for: input) })
    }
}
