import Foundation
import Logging
import SessionCore

/// The GoTrue flows: sign-up, sign-in, refresh, sign-out, user updates.
///
/// Routes parse and answer; this type decides. Every time comes from the
/// configured clock.
public struct SessionService: Sendable {
    let store: AuthStore
    let issuer: AccessTokenIssuer
    let hasher: PasswordHasher
    /// A bcrypt hash checked when the email is unknown, so both sign-in failures cost the same.
    let decoyHash: String
    let configuration: AuthServerConfiguration
    let metrics: ServerMetrics
    let emailLimiter: any RateLimiting
    /// The same per hour: with the per-minute limit, the bound on guesses at one password a day.
    let emailHourLimiter: any RateLimiting
    /// One audit entry per account an hour when its password budget refuses a check.
    let passwordCheckAudit: any RateLimiting
    let logger: Logger

    var clock: any SessionClock { configuration.clock }
    var presence: PresenceCheck {
        PresenceCheck(
            store: store, hasher: hasher, decoyHash: decoyHash, window: configuration.reauthenticationWindow, clock: clock,
            passwordBudget: [emailLimiter, emailHourLimiter], budgetAudit: passwordCheckAudit, metrics: metrics)
    }
    var policy: RotationPolicy {
        var policy = RotationPolicy(
            refreshTokenTTL: configuration.refreshTokenTTL, grace: configuration.refreshGrace,
            recoversUnsavedSuccessors: configuration.recoversUnsavedSuccessors)
        policy.keyEncryptionKey = configuration.keyEncryptionKey ?? .embeddedDefault
        return policy
    }

    /// Where the request came from, recorded on new sessions.
    struct Origin: Sendable {
        var userAgent: String?
        var ip: String?
        /// The thumbprint of the request's valid DPoP proof: the new session is bound to it (docs/DPOP.md).
        var dpopJKT: String? = nil
    }

    func signUp(_ credentials: PasswordCredentials, origin: Origin) async throws -> TokenResponse {
        let email = try Self.normalize(email: credentials.email)
        try validate(password: credentials.password)
        let hash = await hasher.hash(credentials.password)
        let user = try await store.createUser(
            email: email, passwordHash: hash, metadata: credentials.data ?? [:], now: clock.now)
        return try await startSession(for: user, origin: origin)
    }

    func signIn(email rawEmail: String, password: String, origin: Origin) async throws -> TokenResponse {
        try await startSession(for: try await verifiedUser(email: rawEmail, password: password), origin: origin)
    }

    /// The user whose email and password these are, at the same cost for
    /// every failure (an unknown email checks a decoy hash).
    ///
    /// - Throws: ``AuthError/invalidCredentials``, ``AuthError/rateLimited(retryAfter:)``.
    func verifiedUser(email rawEmail: String, password: String) async throws -> UserRecord {
        let email = try Self.normalize(email: rawEmail)
        for limiter in [emailLimiter, emailHourLimiter] {
            if case .limited(let seconds) = try await limiter.attempt(email) { throw AuthError.rateLimited(retryAfter: seconds) }
        }
        guard let user = try await store.user(email: email) else {
            _ = await hasher.verify(password, hash: decoyHash)
            metrics.signIn(succeeded: false)
            throw AuthError.invalidCredentials
        }
        // A user who signed up with a provider has no password: the same answer, at the same cost.
        guard user.hasPassword else {
            _ = await hasher.verify(password, hash: decoyHash)
            metrics.signIn(succeeded: false)
            throw AuthError.invalidCredentials
        }
        guard await hasher.verify(password, hash: user.passwordHash) else {
            metrics.signIn(succeeded: false)
            throw AuthError.invalidCredentials
        }
        // After the password, as GoTrue: only who knows it learns the account waits for confirmation.
        // Until the mailbox answers, the password may be anyone's (docs/DESIGN.md, "Confirming a sign-up's address").
        if user.emailConfirmedAt == nil, !configuration.mailerAutoconfirm {
            metrics.signIn(succeeded: false)
            throw AuthError.emailNotConfirmed
        }
        metrics.signIn(succeeded: true)
        return user
    }

    /// - Parameters:
    ///   - proof: the thumbprint of the request's valid DPoP proof, if one came.
    ///   - ip: the client, for the audit entry of a refused proof.
    func refresh(_ refreshToken: String, proof: String? = nil, ip: String? = nil) async throws -> (TokenResponse, RefreshOutcome) {
        guard !refreshToken.isEmpty, refreshToken.utf8.count <= 512 else { throw AuthError.refreshTokenNotFound }
        try await requireBindingKept(refreshToken, proof: proof, ip: ip)
        let grant: RefreshGrant
        do {
            grant = try await store.rotate(refreshToken: refreshToken, now: clock.now, policy: policy) { family in
                metrics.reuseDetected()
                // A security event an operator should see: someone else may hold a token of this family.
                logger.warning(
                    "Refresh token reuse detected: the session was revoked",
                    metadata: ["user.id": "\(family.userID)", "session.id": "\(family.id)"])
            }
        } catch let error as AuthError {
            metrics.refresh(outcome: error.kind.rawValue)
            throw error
        }
        metrics.refresh(outcome: grant.outcome.rawValue)
        let response = try await tokenResponse(
            user: grant.user, session: grant.session, refreshToken: grant.refreshToken, binding: proof)
        return (response, grant.outcome)
    }

    func logout(_ identity: AuthenticatedIdentity, scope: String, ip: String? = nil) async throws {
        let now = clock.now
        switch scope {
        case "local":
            if let sessionID = identity.sessionID {
                try await store.revokeSession(id: sessionID, userID: identity.userID, reason: "logout", now: now)
            }
        case "global":
            try await store.revokeSessions(userID: identity.userID, keeping: nil, reason: "logout", now: now)
        case "others":
            try await store.revokeSessions(userID: identity.userID, keeping: identity.sessionID, reason: "logout", now: now)
        default:
            throw AuthError.invalidRequest(field: "scope", "scope must be one of local, global, others.")
        }
        try await store.audit(
            actor: identity.userID, action: "logout", target: identity.sessionID, ip: ip, details: ["scope": .string(scope)],
            now: now)
    }

    /// - Parameter method: how the person signed in (`password`, `oauth`), for the token's `amr` claim.
    func startSession(for user: UserRecord, origin: Origin, method: String = "password") async throws -> TokenResponse {
        let now = clock.now
        let (session, refreshToken) = try await store.createSession(
            userID: user.id, userAgent: origin.userAgent, ip: origin.ip, now: now,
            refreshTokenTTL: configuration.refreshTokenTTL, absoluteTTL: configuration.sessionAbsoluteTTL, method: method)
        var signedIn = user
        signedIn.lastSignInAt = now
        return try await tokenResponse(user: signedIn, session: session, refreshToken: refreshToken, binding: origin.dpopJKT)
    }

    /// The answer every route that hands out a session gives (GoTrue's shape).
    ///
    /// - Parameter binding: the thumbprint of the request's valid DPoP proof. An
    ///   unbound session becomes bound to it; a bound one keeps its key, and its
    ///   tokens carry that key's `cnf.jkt` whatever the request sent (docs/DPOP.md).
    func tokenResponse(
        user: UserRecord, session: SessionRecord, refreshToken: String, binding: String? = nil
    ) async throws -> TokenResponse {
        var session = session
        if let binding, session.dpopJKT == nil {
            session.dpopJKT = try await store.bindDPoP(sessionID: session.id, jkt: binding)
        }
        let now = clock.now
        let (accessToken, expiresAt) = try await issuer.issue(
            userID: user.id, email: user.email, isAnonymous: user.isAnonymous, session: session, now: now)
        return TokenResponse(
            accessToken: accessToken, tokenType: session.dpopJKT == nil ? "bearer" : "DPoP",
            expiresIn: Int(configuration.accessTokenTTL),
            expiresAt: Int(expiresAt.timeIntervalSince1970), refreshToken: refreshToken, user: user.sessionUser)
    }

    func validate(password: String) throws {
        // Checked first: "too short" would be the wrong advice for "\u{0}abcdefghij".
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw AuthError.passwordCharacters
        }
        if password.count < configuration.minimumPasswordLength {
            throw AuthError.weakPassword(minimumLength: configuration.minimumPasswordLength)
        }
        // bcrypt reads only 72 bytes; longer passwords would be silently truncated.
        if password.utf8.count > 72 {
            throw AuthError.invalidRequest(field: "password", "Password cannot be longer than 72 bytes.")
        }
    }

    /// Trims and lowercases an email, and checks its shape as GoTrue does
    /// (the HTML living standard's address pattern: ASCII letters, digits and
    /// ``EmailShape/localCharacters`` before the `@`, dot-separated labels of
    /// letters, digits and inner hyphens after it), plus a dot in the domain.
    ///
    /// So a NUL, a control or invisible character, markup, or a look-alike
    /// letter from another script never makes a second account that the
    /// console shows like the first (issue 29, item 13).
    static func normalize(email: String) throws -> String {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard trimmed.utf8.count <= 255, EmailShape.isValid(trimmed) else {
            throw AuthError.invalidRequest(field: "email", "Unable to validate email address: invalid format")
        }
        return trimmed
    }
}
