import _CryptoExtras
import Crypto
import Foundation
import SessionCore

/// Checks an ID token from Sign in with Apple and says whose it is.
///
/// RS256 against Apple's published keys (fetched one at a time, served stale
/// through an outage, like every remote key set here), then `iss`, `aud`
/// (one of the configured client IDs), `exp`/`iat` with the leeway, and the
/// nonce: the token carries SHA-256 of the raw nonce the app sends, so a
/// token lifted from another sign-in cannot be replayed without its nonce.
struct AppleIDTokenVerifier: Sendable {
    let configuration: AppleSignInConfiguration
    let keys: RemoteJWKSKeySource
    let leeway: TimeInterval

    private struct Header: Decodable {
        var alg: String
        var kid: String?
    }

    func account(idToken: String, nonce: String?, now: Date) async throws -> ProviderAccount {
        func reject(_ reason: String) -> AuthError { .badIDToken(reason) }
        guard idToken.utf8.count <= UnverifiedJWT.maximumLength else { throw reject("the ID token is too large") }
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]) else { throw reject("the ID token is malformed") }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: headerData)
        } catch {
            throw reject("the ID token's header is not valid JSON")
        }
        // Pinned: Apple signs with RS256, and accepting whatever `alg` says invites forgeries.
        guard header.alg == "RS256" else { throw reject("signing method \(header.alg.prefix(10)) is not allowed") }
        guard let kid = header.kid, !kid.isEmpty else { throw reject("the ID token has no kid") }
        let publicKey = try await rsaKey(kid: kid)
        guard let signatureData = Base64URL.decode(parts[2]) else { throw reject("the signature is malformed") }
        let signingInput = Data(idToken.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        // PKCS #1 v1.5 is what RS256 means (RFC 7518 §3.3); swift-crypto names it "insecure" to steer new designs away.
        guard publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signatureData), for: signingInput, padding: .insecurePKCS1v1_5)
        else { throw reject("the signature is invalid") }

        guard let payload = Base64URL.decode(parts[1]) else { throw reject("the ID token's payload is malformed") }
        let claims: [String: JSONValue]
        do {
            claims = try JSONDecoder().decode([String: JSONValue].self, from: payload)
        } catch {
            throw reject("the ID token's payload is not valid JSON")
        }
        guard claims["iss"]?.stringValue == configuration.issuer else { throw reject("the ID token has an unexpected iss") }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let one)?: audiences = [one]
        case .array(let many)?: audiences = many.compactMap(\.stringValue)
        default: audiences = []
        }
        guard audiences.contains(where: configuration.clientIDs.contains) else { throw reject("the ID token is for another app (aud)") }
        guard case .number(let exp)? = claims["exp"] else { throw reject("the ID token has no exp") }
        guard now.timeIntervalSince1970 - exp <= leeway else { throw reject("the ID token has expired; sign in with Apple again") }
        if case .number(let iat)? = claims["iat"], iat - now.timeIntervalSince1970 > leeway {
            throw reject("the ID token was issued in the future")
        }
        try Self.checkNonce(raw: nonce, hashed: claims["nonce"]?.stringValue)
        guard let sub = ProviderAccount.accountID(claims["sub"]) else { throw reject("the ID token has no sub") }

        var profile: [String: JSONValue] = ["sub": .string(sub)]
        for key in ["email", "email_verified", "is_private_email"] { profile[key] = claims[key] }
        let email = claims["email"]?.stringValue.flatMap(ProviderCodeExchange.usableEmail)
        return ProviderAccount(
            id: sub, profile: profile, email: email,
            emailVerified: email != nil && ProviderAccount.emailVerified(in: claims, profile: [:]))
    }

    /// Both or neither, as GoTrue requires; compared in constant time.
    static func checkNonce(raw: String?, hashed: String?) throws {
        switch (raw, hashed) {
        case (nil, nil):
            return
        case (nil, _?):
            throw AuthError.badIDToken("the ID token carries a nonce: send the raw nonce with it")
        case (_?, nil):
            throw AuthError.badIDToken("a nonce was sent but the ID token carries none")
        case (let raw?, let hashed?):
            guard SHA256Hex.constantTimeEquals(SHA256Hex.of(raw), hashed) else {
                throw AuthError.badIDToken("the nonce does not match the ID token")
            }
        }
    }

    private func rsaKey(kid: String) async throws -> _RSA.Signing.PublicKey {
        let jwk: JWK?
        do {
            jwk = try await keys.jwk(kid: kid)
        } catch let error as AuthError {
            throw error
        } catch {
            throw AuthError.verificationKeysUnavailable
        }
        guard let jwk, jwk.kty == "RSA", let n = jwk.n.flatMap(Base64URL.decode), let e = jwk.e.flatMap(Base64URL.decode) else {
            throw AuthError.badIDToken("the ID token's kid is not one of Apple's keys")
        }
        do {
            return try _RSA.Signing.PublicKey(n: n, e: e)
        } catch {
            throw AuthError.badIDToken("Apple's key \(kid.prefix(16)) is not a usable RSA key")
        }
    }
}
