import Crypto
import Foundation
import SessionCore

/// Verifies ES256 access tokens: signature first, then claims with leeway.
///
/// Only `ES256` with a known `kid` is accepted. Pinning one algorithm in the
/// header check is what defeats `alg: none` and the HS256-signed-with-the-
/// public-key confusion: neither reaches a signature routine.
///
/// Why our own and not jwt-kit's (measured side by side, in the same run, by
/// `Benchmarks/run --only 7`; docs/BENCHMARKS.md, "jwt-kit beside ours"):
/// signing, which every sign-in and refresh does, is about 1.2 times faster
/// here, and verifying about 1.15 times (a server mostly skips it: the
/// verified-token cache). Both sit on the same swift-crypto P-256. What ours
/// adds is the contract: each refusal carries its reason and maps to
/// `AUTH_REQUIRED` or `SESSION_EXPIRED`, and a key-source outage is a 503,
/// not a refusal. So the server does not depend on jwt-kit.
public struct AccessTokenVerifier: Sendable {
    let keys: any VerificationKeySource
    let issuer: String?
    let audience: String?
    let leeway: TimeInterval
    /// Every token a server issues under one key has the same header segment.
    private let headers = HeaderCache()
    /// One decoder for every token: building one costs more than decoding a token's claims.
    private static let decoder = JSONDecoder()

    /// - Parameters:
    ///   - keys: where public keys come from.
    ///   - issuer: the required `iss`, or `nil` to accept any.
    ///   - audience: a required member of `aud`, or `nil` to accept any.
    ///   - leeway: clock-skew tolerance on `exp`, `nbf` and `iat`, in seconds.
    public init(keys: any VerificationKeySource, issuer: String?, audience: String?, leeway: TimeInterval) {
        self.keys = keys
        self.issuer = issuer
        self.audience = audience
        self.leeway = leeway
    }

    /// Checks `token` at time `now`.
    ///
    /// - Throws: ``AuthError/authRequired(_:credentialsSent:)`` for anything
    ///   malformed, unsigned or badly signed, ``AuthError/tokenExpired`` past
    ///   `exp + leeway`, ``AuthError/internalFailure`` if the keys cannot be read.
    public func verify(_ token: String, now: Date) async throws -> VerifiedAccessToken {
        func reject(_ reason: String) -> AuthError { .authRequired(reason, credentialsSent: true) }
        guard token.utf8.count <= UnverifiedJWT.maximumLength else { throw reject("token is too large") }
        // The dots are found in the bytes: splitting the String walked every character
        // through grapheme breaking (docs/BENCHMARKS.md, "Where the request's time goes").
        var token = token
        let dot = UInt8(ascii: ".")
        let split: (first: Int, last: Int, signingInput: Data)? = token.withUTF8 { bytes in
            guard let first = bytes.firstIndex(of: dot), let last = bytes.lastIndex(of: dot), first != last,
                  !bytes[(first + 1)..<last].contains(dot)
            else { return nil }
            return (first, last, Data(bytes[..<last]))
        }
        guard let split else { throw reject("token is malformed") }
        // A dot is ASCII, so these fall on character boundaries; the string is native UTF-8
        // (withUTF8 made it so), where these offsets cost O(1).
        let utf8 = token.utf8
        let firstDot = utf8.index(utf8.startIndex, offsetBy: split.first)
        let lastDot = utf8.index(utf8.startIndex, offsetBy: split.last)
        let payloadSegment = token[utf8.index(after: firstDot)..<lastDot]
        let header = try headers.header(of: token[..<firstDot]) { reject($0) }
        guard header.alg == "ES256" else { throw reject("signing method \(header.alg.prefix(10)) is not allowed") }
        guard let kid = header.kid, !kid.isEmpty else { throw reject("token has no kid") }

        let publicKey: P256.Signing.PublicKey?
        do {
            publicKey = try await keys.verificationKey(kid: kid)
        } catch let error as AuthError {
            throw error
        } catch {
            // A key source that cannot answer is an outage, not a server fault: clients retry.
            throw AuthError.verificationKeysUnavailable
        }
        guard let publicKey else { throw reject("unknown kid") }
        guard let signatureData = Base64URL.decode(token[utf8.index(after: lastDot)...]), signatureData.count == 64 else {
            throw reject("signature is malformed")
        }
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureData)
        } catch {
            throw reject("signature is malformed")
        }
        guard publicKey.isValidSignature(signature, for: split.signingInput) else { throw reject("signature is invalid") }

        // Only a signed payload is parsed: nothing unsigned is ever trusted.
        guard let payloadData = Base64URL.decode(payloadSegment) else { throw reject("token payload is not base64url") }
        // One decode for the shared claims and the server's `aal` and `cnf` (AccessTokenPayload).
        let payload: AccessTokenPayload
        do {
            payload = try Self.decoder.decode(AccessTokenPayload.self, from: payloadData)
        } catch {
            throw reject("token payload is not valid JSON")
        }
        let claims = payload.claims
        try checkClaims(claims, now: now)
        guard let sub = claims.sub, !sub.isEmpty else { throw reject("token has no sub") }
        let extra = payload.assurance(payload: payloadData)
        return VerifiedAccessToken(
            userID: sub, sessionID: claims.sessionId, email: claims.email, claims: claims, keyID: kid,
            aal: extra.aal, confirmationJKT: extra.jkt)
    }

    private func checkClaims(_ claims: JWTClaims, now: Date) throws {
        func reject(_ reason: String) -> AuthError { .authRequired(reason, credentialsSent: true) }
        if let audience, !claims.aud.contains(audience) { throw reject("token has an unexpected aud") }
        if let issuer, claims.iss != issuer { throw reject("token has an unexpected iss") }
        guard let exp = claims.exp else { throw reject("token has no exp") }
        if now.timeIntervalSince(exp) > leeway { throw AuthError.tokenExpired }
        if let nbf = claims.nbf, nbf.timeIntervalSince(now) > leeway { throw reject("token is not valid yet") }
        if let iat = claims.iat, iat.timeIntervalSince(now) > leeway { throw reject("token was issued in the future") }
    }
}
