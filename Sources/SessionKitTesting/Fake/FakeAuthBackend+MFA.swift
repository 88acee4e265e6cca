import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// GoTrue's second factors (`internal/api/mfa.go`; docs/MFA.md has the wire
/// shapes): `POST /factors`, `/factors/{id}/challenge`, `/factors/{id}/verify`,
/// `DELETE /factors/{id}`, with `aal`/`amr` in the access tokens. The code of a
/// factor is not a real TOTP: the test reads it with ``totpCode(forFactor:)``.
extension FakeAuthBackend {
    // MARK: - Test controls

    /// The code the factor's authenticator app shows now; `nil` for an unknown factor.
    public func totpCode(forFactor id: String) -> String? { mfa.factors[id]?.code }

    /// Gives the user a verified TOTP factor, as if enrolled earlier; returns its id.
    @discardableResult
    public func addVerifiedFactor(email: String, friendlyName: String = "phone") -> String? {
        guard let user = users[email.lowercased()] else { return nil }
        let id = UUID().uuidString.lowercased()
        mfa.factors[id] = FakeFactors.Factor(
            id: id, userID: user.record.id, friendlyName: friendlyName, verified: true, code: FakeFactors.newCode(),
            createdAt: serverNow, updatedAt: serverNow)
        syncFactors(userID: user.record.id)
        return id
    }

    /// Commits the next verify (the session is raised, its refresh token rotated), then loses the answer.
    public func loseNextFactorVerifyAnswer() { mfa.loseNextVerifyAnswer = true }

    /// Verify requests served so far.
    public var factorVerifyCount: Int { mfa.verifyCount }

    // MARK: - Routes

    /// Answers a `/auth/v1/factors` request; `nil` for any other path.
    func handleFactors(_ request: URLRequest) throws -> (Data, HTTPURLResponse)? {
        guard let path = request.url?.path, path == "/auth/v1/factors" || path.hasPrefix("/auth/v1/factors/") else { return nil }
        let parts = path.split(separator: "/").dropFirst(3).map(String.init)  // after auth, v1, factors
        let (user, sessionID): (User, String)
        switch authenticate(request) {
        case .success(let value): (user, sessionID) = value
        case .failure(let failure): return try goTrueAuthError(request, failure)
        }
        switch (request.httpMethod ?? "GET", parts.count, parts.last) {
        case ("POST", 0, _): return try enroll(request, user: user, sessionID: sessionID)
        case ("POST", 2, "challenge"): return try challenge(request, factorID: parts[0], user: user)
        case ("POST", 2, "verify"): return try verify(request, factorID: parts[0], user: user, sessionID: sessionID)
        case ("DELETE", 1, _): return try unenroll(request, factorID: parts[0], user: user, sessionID: sessionID)
        default: return try goTrueError(request, status: 404, code: GoTrueErrorCode("not_found"), message: "Not found")
        }
    }

    private func enroll(_ request: URLRequest, user: User, sessionID: String) throws -> (Data, HTTPURLResponse) {
        guard let params = decodeBody(MFAEnrollParams.self, request), params.factorType == "totp" else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "factor_type needs to be totp")
        }
        // GoTrue: once a factor is verified, a further one needs AAL2 (403).
        if hasVerifiedFactor(user.record.id), mfa.raised[sessionID] == nil {
            return try goTrueError(request, status: 403, code: .insufficientAAL, message: "AAL2 required to enroll a new factor")
        }
        let id = UUID().uuidString.lowercased()
        let secret = String(Self.randomToken().filter(\.isLetter).uppercased().prefix(32))
        mfa.factors[id] = FakeFactors.Factor(
            id: id, userID: user.record.id, friendlyName: params.friendlyName, code: FakeFactors.newCode(),
            createdAt: serverNow, updatedAt: serverNow)
        syncFactors(userID: user.record.id)
        let issuer = params.issuer ?? baseURL.host ?? "fake"
        let uri = "otpauth://totp/\(issuer):\(user.record.email ?? user.record.id)?algorithm=SHA1&digits=6&issuer=\(issuer)&period=30&secret=\(secret)"
        return try json(
            request,
            MFAEnrollResponse(
                id: id, type: "totp", friendlyName: params.friendlyName,
                totp: .init(qrCode: "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>", secret: secret, uri: uri)))
    }

    private func challenge(_ request: URLRequest, factorID: String, user: User) throws -> (Data, HTTPURLResponse) {
        guard mfa.factors[factorID]?.userID == user.record.id else { return try factorNotFound(request) }
        let id = UUID().uuidString.lowercased()
        // GoTrue's MFA_CHALLENGE_EXPIRY_DURATION: 300 s.
        let expiresAt = serverNow.addingTimeInterval(300)
        mfa.challenges[id] = FakeFactors.Challenge(factorID: factorID, expiresAt: expiresAt)
        return try json(request, MFAChallengeResponse(id: id, type: "totp", expiresAt: Int(expiresAt.timeIntervalSince1970)))
    }

    private func verify(_ request: URLRequest, factorID: String, user: User, sessionID: String) throws -> (Data, HTTPURLResponse) {
        mfa.verifyCount += 1
        struct Body: Decodable {
            var challengeID: String
            var code: String
            enum CodingKeys: String, CodingKey {
                case code
                case challengeID = "challenge_id"
            }
        }
        guard let body = decodeBody(Body.self, request) else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "challenge_id and code are required")
        }
        guard let factor = mfa.factors[factorID], factor.userID == user.record.id,
            let challenge = mfa.challenges[body.challengeID], challenge.factorID == factorID
        else { return try factorNotFound(request) }
        guard !challenge.answered, serverNow < challenge.expiresAt else {
            return try goTrueError(request, status: 422, code: .mfaChallengeExpired, message: "MFA challenge has expired")
        }
        guard body.code == factor.code else {
            return try goTrueError(request, status: 422, code: .mfaVerificationFailed, message: "Invalid TOTP code entered")
        }
        let now = serverNow
        mfa.challenges[body.challengeID]?.answered = true
        mfa.factors[factorID]?.code = FakeFactors.newCode()
        mfa.factors[factorID]?.verified = true
        mfa.factors[factorID]?.updatedAt = now
        if !factor.verified {
            // Enrolment ends the user's other sessions that never proved the factor (docs/MFA.md).
            for (id, family) in families where family.userID == user.record.id && id != sessionID && mfa.raised[id] == nil {
                families[id]?.revoked = true
            }
        }
        mfa.raised[sessionID] = now
        syncFactors(userID: user.record.id)
        // GoTrue swaps the session's refresh token: the one it replaces leads to the new one (within the grace).
        let access = issueAccessToken(user: users[user.record.email?.lowercased() ?? ""]?.record ?? user.record, sessionID: sessionID)
        let refresh = Self.randomToken()
        for (token, record) in refreshTokens where record.sessionID == sessionID && record.successor == nil {
            refreshTokens[token]?.successor = refresh
            refreshTokens[token]?.rotatedAt = now
        }
        refreshTokens[refresh] = RefreshRecord(sessionID: sessionID)
        successorAccessTokens[refresh] = access
        let answer = try json(request, tokenResponse(access: access, refresh: refresh, user: currentRecord(user)))
        if mfa.loseNextVerifyAnswer {
            mfa.loseNextVerifyAnswer = false
            throw URLError(.networkConnectionLost)
        }
        return answer
    }

    private func unenroll(_ request: URLRequest, factorID: String, user: User, sessionID: String) throws -> (Data, HTTPURLResponse) {
        guard let factor = mfa.factors[factorID], factor.userID == user.record.id else { return try factorNotFound(request) }
        if factor.verified, mfa.raised[sessionID] == nil {
            return try goTrueError(request, status: 422, code: .insufficientAAL, message: "AAL2 required to unenroll verified factor")
        }
        mfa.factors[factorID] = nil
        if !hasVerifiedFactor(user.record.id) {
            // With no verified factor left, the user's sessions are AAL1 again (on their next token).
            for (id, family) in families where family.userID == user.record.id { mfa.raised[id] = nil }
        }
        syncFactors(userID: user.record.id)
        struct Answer: Encodable { var id: String }
        return try json(request, Answer(id: factorID))
    }

    // MARK: - Tokens and records

    /// An access token with GoTrue's `aal` and `amr` claims for the session's level.
    func accessTokenWithAssurance(user: SessionUser, sessionID: String, issuedAt now: Date) -> String {
        let plain = TestJWT.make(
            subject: user.id, sessionID: sessionID, email: user.email, issuedAt: now,
            expiresAt: now.addingTimeInterval(accessTokenLifetime), issuer: baseURL.absoluteString + "/auth/v1")
        let parts = plain.split(separator: ".").map(String.init)
        var claims: [String: Any]
        do {
            guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
                let object = try JSONSerialization.jsonObject(with: payload) as? [String: Any]
            else { return plain }
            claims = object
        } catch {
            return plain  // TestJWT always writes a JSON object; keep the token total anyway
        }
        let signedInAt = families[sessionID]?.createdAt ?? now
        // GoTrue's `amr` names how the session began (`anonymous` for an anonymous sign-in), and every token says `is_anonymous`.
        let isAnonymous = currentAnonymity(of: user)
        let firstMethod = isAnonymous ? "anonymous" : "password"
        var amr: [[String: Any]] = [["method": firstMethod, "timestamp": Int(signedInAt.timeIntervalSince1970)]]
        claims["is_anonymous"] = isAnonymous
        if let raisedAt = mfa.raised[sessionID] {
            amr.insert(["method": "totp", "timestamp": Int(raisedAt.timeIntervalSince1970)], at: 0)
        }
        claims["aal"] = mfa.raised[sessionID] == nil ? "aal1" : "aal2"
        claims["amr"] = amr
        do {
            let encoded = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
            return parts[0] + "." + Base64URL.encode(encoded) + "." + parts[2]
        } catch {
            return plain
        }
    }

    private func hasVerifiedFactor(_ userID: String) -> Bool {
        mfa.factors.values.contains { $0.userID == userID && $0.verified }
    }

    private func currentRecord(_ user: User) -> SessionUser {
        users.values.first { $0.record.id == user.record.id }?.record ?? user.record
    }

    /// Lists the user's factors in `user.factors`, as GoTrue does (left out when there are none).
    private func syncFactors(userID: String) {
        guard let key = users.first(where: { $0.value.record.id == userID })?.key else { return }
        let list = mfa.factors.values.filter { $0.userID == userID }.sorted { $0.createdAt < $1.createdAt }.map {
            UserFactor(
                id: $0.id, friendlyName: $0.friendlyName, factorType: "totp", status: $0.verified ? "verified" : "unverified",
                createdAt: $0.createdAt, updatedAt: $0.updatedAt)
        }
        users[key]?.record.factors = list.isEmpty ? nil : list
    }

    private func factorNotFound(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        try goTrueError(request, status: 404, code: .mfaFactorNotFound, message: "Factor not found")
    }
}
