import Foundation
import Logging
import SessionCore

/// Second factors, as GoTrue's `internal/api/mfa.go` behaves: enrol a TOTP
/// factor, challenge it, verify a code (which raises the session to `aal2`),
/// unenrol it (docs/MFA.md). Routes parse and answer; this type decides.
struct FactorService: Sendable {
    let sessions: SessionService
    /// Its guessing budget is the one wrong TOTP codes spend too.
    let codes: EmailCodeService
    /// Seals factor secrets, as it seals signing keys.
    let kek: KeyEncryptionKey

    var store: AuthStore { sessions.store }
    var clock: any SessionClock { sessions.clock }
    var configuration: MFAConfiguration { sessions.configuration.mfa }

    /// Enrols a new, unverified TOTP factor and returns its secret, URI and QR code: the only time the secret leaves.
    func enroll(_ request: EnrollFactorRequest, identity: FactorCaller, ip: String?) async throws
        -> EnrollFactorResponse
    {
        guard request.factorType == FactorRecord.totp else {
            // Phone and WebAuthn factors are not offered: GoTrue's answer for an unknown type.
            throw AuthError.invalidRequest(field: "factor_type", "factor_type needs to be totp")
        }
        guard configuration.totpEnrollEnabled else {
            throw AuthError.mfaRefused("mfa_totp_enroll_not_enabled", "MFA enroll is disabled for TOTP")
        }
        let friendlyName = try Self.checked(request.friendlyName, field: "friendly_name", maximum: 256)
        let issuer = try Self.checked(request.issuer, field: "issuer", maximum: 64) ?? defaultIssuer
        guard let user = try await store.user(id: identity.userID) else { throw AuthError.sessionRevoked }
        let session = try await currentSession(identity)
        let now = clock.now
        let totp = TOTP.generate()
        let id = UUID().uuidString.lowercased()
        let uri = totp.uri(issuer: issuer, accountName: user.email ?? user.id)
        let qrCode: String
        do {
            qrCode = try QRCode(bytes: Array(uri.utf8)).svg()
        } catch {
            // A long issuer of escaped letters and a long email: more than a scannable code holds.
            throw AuthError.invalidRequest(field: "issuer", "The issuer and email make a URI too long for a QR code; use a shorter issuer.")
        }
        let factor = FactorRecord(
            id: id, userID: user.id, friendlyName: friendlyName, factorType: FactorRecord.totp, status: FactorRecord.unverified,
            sealedSecret: try kek.seal(pem: totp.base32Secret, kid: id), createdAt: now, updatedAt: now)
        try await store.insertFactor(
            factor,
            rules: .init(
                maximumEnrolled: configuration.maximumEnrolledFactors, maximumVerified: configuration.maximumVerifiedFactors,
                sessionIsAAL2: session.aal == "aal2"),
            ip: ip)
        return EnrollFactorResponse(
            id: id, type: FactorRecord.totp, friendlyName: friendlyName ?? "",
            totp: .init(qrCode: qrCode, secret: totp.base32Secret, uri: uri))
    }

    /// A challenge for one of the caller's factors, valid ``MFAConfiguration/challengeLifetime``.
    func challenge(factorID: String, identity: FactorCaller, ip: String?) async throws -> ChallengeFactorResponse {
        let factor = try await ownFactor(factorID, identity)
        let now = clock.now
        let challenge = ChallengeRecord(id: UUID().uuidString.lowercased(), factorID: factor.id, createdAt: now, ip: ip)
        try await store.insertChallenge(challenge)
        return ChallengeFactorResponse(
            id: challenge.id, type: factor.factorType,
            expiresAt: Int(now.addingTimeInterval(configuration.challengeLifetime).timeIntervalSince1970))
    }

    /// Checks `code` against the challenge and, when it is right and unused, raises the session to `aal2`.
    ///
    /// Every code presented spends from the account's guessing budget, the one
    /// email codes spend (docs/EMAIL.md): a six-digit code is guessable only by many tries.
    ///
    /// - Parameter binding: the thumbprint of the request's valid DPoP proof (docs/DPOP.md).
    func verify(factorID: String, _ request: VerifyFactorRequest, identity: FactorCaller, ip: String?, binding: String? = nil)
        async throws -> TokenResponse
    {
        guard !request.code.isEmpty else { throw AuthError.invalidRequest(field: "code", "Code needs to be non-empty") }
        guard UUID(uuidString: request.challengeID) != nil else {
            throw AuthError.invalidRequest(field: "challenge_id", "challenge_id must be a UUID")
        }
        guard let sessionID = identity.sessionID else { throw AuthError.sessionRevoked }
        let factor = try await ownFactor(factorID, identity)
        guard let user = try await store.user(id: identity.userID) else { throw AuthError.sessionRevoked }
        try await codes.spendGuess(user.email ?? "user:\(user.id)", origin: .init(userAgent: nil, ip: ip))
        let secret: String
        do {
            secret = try kek.open(factor.sealedSecret, kid: factor.id)
        } catch {
            // A secret that does not open is the operator's to fix (wrong KEK), never the person's code.
            sessions.logger.error("A factor's secret does not open", metadata: ["factor.id": "\(factor.id)"])
            throw AuthError.internalFailure
        }
        guard let bytes = Base32.decode(secret) else { throw AuthError.internalFailure }
        let now = clock.now
        let verification = try await store.verifyFactor(
            .init(
                factorID: factor.id, challengeID: request.challengeID.lowercased(), userID: user.id, sessionID: sessionID,
                matchedStep: TOTP(secret: bytes).matchingStep(of: request.code, at: now), ip: ip,
                challengeLifetime: configuration.challengeLifetime, refreshTokenTTL: sessions.configuration.refreshTokenTTL,
                kek: kek),
            now: now)
        return try await sessions.tokenResponse(
            user: verification.user, session: verification.session, refreshToken: verification.refreshToken, binding: binding)
    }

    /// Removes one of the caller's factors; a verified one needs an `aal2` session (GoTrue: 422 `insufficient_aal`).
    func unenroll(factorID: String, identity: FactorCaller, ip: String?) async throws -> UnenrollFactorResponse {
        let factor = try await ownFactor(factorID, identity)
        if factor.isVerified, try await currentSession(identity).aal != "aal2" {
            throw AuthError.insufficientAAL(status: 422, "AAL2 required to unenroll verified factor")
        }
        guard try await store.deleteFactor(id: factor.id, userID: identity.userID, actor: identity.userID, ip: ip, now: clock.now)
        else { throw AuthError.mfaFactorNotFound }
        return UnenrollFactorResponse(id: factor.id)
    }

    /// The caller's factor `id`; another user's is "not found", as a missing one.
    private func ownFactor(_ id: String, _ identity: FactorCaller) async throws -> FactorRecord {
        guard UUID(uuidString: id) != nil, let factor = try await store.factor(id: id.lowercased(), userID: identity.userID)
        else { throw AuthError.mfaFactorNotFound }
        return factor
    }

    private func currentSession(_ identity: FactorCaller) async throws -> SessionRecord {
        guard let id = identity.sessionID, let session = try await store.session(id: id), !session.isRevoked else {
            throw AuthError.sessionRevoked
        }
        return session
    }

    /// The issuer apps show beside the code when the client names none: this server's host, as GoTrue uses its site URL's.
    private var defaultIssuer: String {
        sessions.configuration.externalURL?.host ?? URL(string: sessions.configuration.issuer)?.host ?? "SessionKit"
    }

    /// `text` when it is a usable name: at most `maximum` characters, no control characters.
    static func checked(_ text: String?, field: String, maximum: Int) throws -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard text.unicodeScalars.count <= maximum,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw AuthError.invalidRequest(field: field, "\(field) must be at most \(maximum) characters, without control characters.")
        }
        return text
    }
}
