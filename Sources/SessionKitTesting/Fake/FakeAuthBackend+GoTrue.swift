import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// GoTrue endpoints of the fake: sessions, rotation, reuse grace and detection.
extension FakeAuthBackend {
    func handleSignUp(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        if let answer = try handleAnonymousSignUp(request) { return answer }
        guard let credentials = decodeBody(PasswordCredentials.self, request) else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "email and password are required")
        }
        if credentials.password.count < 6 {
            return try goTrueError(request, status: 422, code: .weakPassword, message: "Password should be at least 6 characters.")
        }
        if users[credentials.email.lowercased()] != nil {
            return try goTrueError(request, status: 422, code: .userAlreadyExists, message: "User already registered")
        }
        let user = createUser(email: credentials.email, password: credentials.password, metadata: credentials.data ?? [:])
        return try json(request, startFamily(for: user))
    }

    func handlePasswordGrant(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        guard let credentials = decodeBody(PasswordCredentials.self, request) else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "email and password are required")
        }
        guard let user = users[credentials.email.lowercased()], user.password == credentials.password else {
            return try goTrueError(request, status: 400, code: .invalidCredentials, message: "Invalid login credentials")
        }
        return try json(request, startFamily(for: user.record))
    }

    func handleRefresh(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        guard let body = decodeBody(RefreshTokenRequest.self, request), !body.refreshToken.isEmpty else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "refresh_token is required")
        }
        guard let record = refreshTokens[body.refreshToken], let family = families[record.sessionID],
            let user = users.values.first(where: { $0.record.id == family.userID })
        else {
            return try goTrueError(request, status: 400, code: .refreshTokenNotFound, message: "Invalid Refresh Token: Refresh Token Not Found")
        }
        if family.revoked {
            return try goTrueError(request, status: 400, code: .sessionNotFound, message: "Session not found")
        }
        let now = serverNow
        if let successor = record.successor {
            if let rotatedAt = record.rotatedAt, now.timeIntervalSince(rotatedAt) <= reuseGrace,
                let access = successorAccessTokens[successor]
            {
                // Within the grace: the same successor, so a lost answer costs nothing.
                return try json(request, tokenResponse(access: access, refresh: successor, user: user.record))
            }
            families[record.sessionID]?.revoked = true
            return try goTrueError(
                request, status: 400, code: .refreshTokenAlreadyUsed, message: "Invalid Refresh Token: Already Used")
        }
        let successor = Self.randomToken()
        let access = issueAccessToken(user: user.record, sessionID: record.sessionID)
        refreshTokens[body.refreshToken]?.successor = successor
        refreshTokens[body.refreshToken]?.rotatedAt = now
        refreshTokens[successor] = RefreshRecord(sessionID: record.sessionID)
        successorAccessTokens[successor] = access
        families[record.sessionID]?.lastRefreshedAt = now
        return try json(request, tokenResponse(access: access, refresh: successor, user: user.record))
    }

    func handleUser(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        switch authenticate(request) {
        case .success(let (user, _)): return try json(request, user.record)
        case .failure(let failure): return try goTrueAuthError(request, failure)
        }
    }

    func handleUpdateUser(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        switch authenticate(request) {
        case .success(let (user, sessionID)):
            struct Update: Decodable {
                var data: [String: JSONValue]?
                var password: String?
            }
            let update = decodeBody(Update.self, request)
            if let answer = try handleEmailChange(request, user: user) { return answer }
            var record = currentUser(id: user.record.id) ?? user.record
            for (key, value) in update?.data ?? [:] { record.userMetadata[key] = value }
            record.updatedAt = serverNow
            let key = userKey(id: record.id) ?? ""
            users[key]?.record = record
            if let password = update?.password {
                let proof = checkProof(request, user: user)
                guard case .accepted = proof else { return try goTrueProofError(request, proof) }
                guard password.count >= 8 else {
                    return try goTrueError(request, status: 422, code: .weakPassword, message: "Password should be at least 8 characters.")
                }
                // As auth-server: the new password signs out every other session.
                users[key]?.password = password
                for (id, family) in families where family.userID == record.id && id != sessionID { families[id]?.revoked = true }
            }
            return try json(request, record)
        case .failure(let failure): return try goTrueAuthError(request, failure)
        }
    }

    func handleLogout(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        switch authenticate(request) {
        case .success(let (user, sessionID)):
            let scope = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?
                .queryItems?.first { $0.name == "scope" }?.value ?? "global"
            for (key, family) in families where family.userID == user.record.id {
                let isThis = key == sessionID
                if (scope == "local" && isThis) || scope == "global" || (scope == "others" && !isThis) {
                    families[key]?.revoked = true
                }
            }
            return try respond(request, status: 204, body: Data())
        case .failure(let failure): return try goTrueAuthError(request, failure)
        }
    }

    // MARK: - Issuing

    func startFamily(for user: SessionUser) -> TokenResponse {
        let sessionID = UUID().uuidString.lowercased()
        families[sessionID] = Family(id: sessionID, userID: user.id, createdAt: serverNow)
        let refresh = Self.randomToken()
        refreshTokens[refresh] = RefreshRecord(sessionID: sessionID)
        let access = issueAccessToken(user: user, sessionID: sessionID)
        return tokenResponse(access: access, refresh: refresh, user: user)
    }

    func issueAccessToken(user: SessionUser, sessionID: String) -> String {
        let token = accessTokenWithAssurance(user: user, sessionID: sessionID, issuedAt: serverNow)
        accessTokens[token] = sessionID
        return token
    }

    func tokenResponse(access: String, refresh: String, user: SessionUser) -> TokenResponse {
        let claims: JWTClaims?
        do {
            claims = try UnverifiedJWT(access).claims
        } catch {
            claims = nil
        }
        let exp = claims?.exp ?? serverNow.addingTimeInterval(accessTokenLifetime)
        return TokenResponse(
            accessToken: access, expiresIn: Int(accessTokenLifetime), expiresAt: Int(exp.timeIntervalSince1970),
            refreshToken: refresh, user: user)
    }

    static func randomToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        return Base64URL.encode(Data(bytes))
    }
}
