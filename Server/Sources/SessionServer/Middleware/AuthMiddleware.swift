import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// Protects routes with SessionKit's 401 contract; reusable by any Hummingbird app.
///
/// - Missing credentials → ``AuthError/authRequired(_:credentialsSent:)`` without `WWW-Authenticate`.
/// - A garbage header, a malformed, unsigned or badly signed token, the wrong
///   `aud`/`iss` → `AUTH_REQUIRED` with `WWW-Authenticate: Bearer error="invalid_token"`.
/// - A token expired beyond the leeway, or whose session was revoked → `SESSION_EXPIRED`.
/// - With ``requiresAAL2``, a valid token without `aal: aal2` → 403 `MFA_REQUIRED`: the
///   session stays; the person steps up with a second factor (docs/MFA.md).
///
/// Errors are thrown as ``AuthError``, which answers in the gateway envelope
/// unless an outer middleware maps it (the GoTrue routes do).
///
/// - Important: with `sessions` (this server's own routes, ``AuthStore``) a
///   sign-out, a revocation or a ban refuses the token at once, within the
///   session check cache's second on other replicas. Without it (a resource
///   server that verifies the JWT alone, as GoTrue's clients do) a token stays
///   valid until its `exp` after any of them: up to the access-token lifetime
///   (an hour by default). Pass a ``SessionValidator`` where that window matters.
public struct AuthMiddleware<Context: AuthenticatedRequestContext>: RouterMiddleware {
    let verifier: AccessTokenVerifier
    let sessions: (any SessionValidator)?
    let clock: any SessionClock
    let cache: VerifiedTokenCache?
    /// Whether the routes behind it need a verified second factor (`aal2`).
    public var requiresAAL2 = false
    /// Checks DPoP proofs (docs/DPOP.md); `nil` refuses every DPoP-bound token, as it cannot check one.
    var dpop: DPoPVerifier? = nil
    /// Counts refused proofs by reason, as the grants do (`auth_dpop_proofs_refused_total`).
    var dpopMetrics: ServerMetrics? = nil

    /// - Parameters:
    ///   - verifier: checks signatures and claims (local keys or a remote JWKS).
    ///   - sessions: checks the token's session is still live; `nil` trusts the token alone.
    ///   - clock: the time expiry is judged against.
    ///   - cache: remembers verified tokens until `exp + leeway`; `nil` verifies every time.
    public init(
        verifier: AccessTokenVerifier, sessions: (any SessionValidator)?, clock: any SessionClock = SystemClock(),
        cache: VerifiedTokenCache? = nil
    ) {
        self.verifier = verifier
        self.sessions = sessions
        self.clock = clock
        self.cache = cache
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let (scheme, token) = try Self.credentials(in: request.headers)
        let now = clock.now
        let verified = try await verify(token, now: now)
        // Every request, cached token or not: a proof belongs to the request (docs/DPOP.md).
        let jkt = try await checkProof(request, scheme: scheme, token: token, verified: verified, now: now)
        if let sessions {
            guard let sessionID = verified.sessionID else {
                throw AuthError.authRequired("token has no session_id", credentialsSent: true)
            }
            let active: Bool
            do {
                active = try await sessions.isSessionActive(sessionID: sessionID, userID: verified.userID, now: now)
            } catch {
                // The store is unreachable: a server fault, never a reason to end a session.
                throw AuthError.internalFailure
            }
            guard active else { throw AuthError.sessionRevoked }
        }
        // After the session check: an ended session is SESSION_EXPIRED, never a step-up.
        if requiresAAL2, !verified.isAAL2 { throw AuthError.insufficientAAL(status: 403, GatewayError.mfaRequiredMessage) }
        var context = context
        context.identity = AuthenticatedIdentity(
            userID: verified.userID, sessionID: verified.sessionID, token: verified, dpopJKT: jkt)
        return try await next(request, context)
    }

    /// This middleware, for routes that need a verified second factor: an `aal1` token gets 403 `MFA_REQUIRED`.
    public func requiringAAL2() -> AuthMiddleware {
        var copy = self
        copy.requiresAAL2 = true
        return copy
    }

    /// Verifies `token`, or takes it from the cache when it was verified before and is not yet expired.
    func verify(_ token: String, now: Date) async throws -> VerifiedAccessToken {
        guard let cache else { return try await verifier.verify(token, now: now) }
        let key = VerifiedTokenCache.key(for: token)
        // A hit skips ES256, not the key check: a retired key stops verifying at once, cached or not.
        if let cached = cache.token(for: key, now: now), let kid = cached.keyID, await isKnown(kid: kid) {
            return cached
        }
        let verified = try await verifier.verify(token, now: now)
        if let exp = verified.claims.exp {
            cache.insert(verified, for: key, validUntil: exp.addingTimeInterval(verifier.leeway), now: now)
        }
        return verified
    }

    /// Whether `kid` still verifies; a failure to read keys falls through to a
    /// full verification, which reports it.
    private func isKnown(kid: String) async -> Bool {
        do {
            return try await verifier.keys.verificationKey(kid: kid) != nil
        } catch {
            return false
        }
    }

    /// The token of an `Authorization: Bearer …` header: the scheme in any
    /// case, then the token, separated by spaces.
    ///
    /// Read as bytes: splitting the `String` walked the ~800 characters of a
    /// token through grapheme breaking, a tenth of a cached request's CPU
    /// (docs/BENCHMARKS.md, "Where the request's time goes").
    ///
    /// - Throws: ``AuthError/authRequired(_:credentialsSent:)``; `credentialsSent` is true whenever a header was present.
    static func bearerToken(in headers: HTTPFields) throws -> String {
        let (scheme, token) = try credentials(in: headers, schemes: [.bearer])
        assert(scheme == .bearer)
        return token
    }

    /// The scheme and token of `Authorization: Bearer …` or `Authorization: DPoP …` (RFC 9449 §7.1).
    static func credentials(
        in headers: HTTPFields, schemes: [CredentialScheme] = [.bearer, .dpop]
    ) throws -> (CredentialScheme, String) {
        guard var value = authorization(in: headers) else {
            throw AuthError.authRequired("no credentials", credentialsSent: false)
        }
        for scheme in schemes {
            let token = value.withUTF8 { bytes in
                Self.tokenRange(in: bytes, scheme: scheme.rawValue).map {
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)
                }
            }
            if let token { return (scheme, token) }
        }
        throw AuthError.authRequired("the Authorization header is not a Bearer token", credentialsSent: true)
    }

    /// The `Authorization` value. One field, the common case, is read as it is:
    /// `headers[.authorization]` joins every value through a lazy map, 1.8 µs a
    /// request (docs/BENCHMARKS.md, "Round 3 — the request path's profile").
    /// Two or more are still joined, so such a request is refused as it always was.
    static func authorization(in headers: HTTPFields) -> String? {
        var single: String?
        for field in headers where field.name == .authorization {
            if single != nil { return headers[.authorization] }
            single = field.value
        }
        return single
    }

    /// Where the token lies in the bytes of `<scheme> <token>` (`scheme` lowercase); nil when they are anything else.
    private static func tokenRange(in bytes: UnsafeBufferPointer<UInt8>, scheme: String) -> Range<Int>? {
        let space = UInt8(ascii: " ")
        guard let schemeStart = bytes.firstIndex(where: { $0 != space }),
              let schemeEnd = bytes[schemeStart...].firstIndex(of: space),
              bytes[schemeStart..<schemeEnd].elementsEqual(scheme.utf8, by: { $0 | 0x20 == $1 }),
              let tokenStart = bytes[schemeEnd...].firstIndex(where: { $0 != space })
        else { return nil }
        let tokenEnd = bytes[tokenStart...].firstIndex(of: space) ?? bytes.endIndex
        guard !bytes[tokenEnd...].contains(where: { $0 != space }) else { return nil }
        // Spaces are ASCII, so the range starts and ends on character boundaries.
        return tokenStart..<tokenEnd
    }
}
